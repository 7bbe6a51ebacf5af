// Compiled, not run, by the core_thread_annotations_* ctests (tests/core/CMakeLists.txt) with clang
// -Wthread-safety -Werror=thread-safety: as is it must compile (every access holds its mutex);
// with -DPP_EXPECT_VIOLATIONS each function below must be refused, one error apiece, so the
// annotations in core/thread_annotations.hpp and core/mutex.hpp cannot silently stop biting.
#include <condition_variable>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp {

class account {
 public:
  void deposit(int v) PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    add_locked(v);
    changed_.notify_all();
  }
  int wait_for_positive() PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    lock.wait(changed_, [&]() PP_REQUIRES(mu_) { return balance_ > 0; });
    return balance_;
  }
  int audit() PP_EXCLUDES(log_mu_) {
    reader_lock lock(log_mu_);
    return entries_;
  }
  void log() PP_EXCLUDES(log_mu_) {
    writer_lock lock(log_mu_);
    ++entries_;
  }

#ifdef PP_EXPECT_VIOLATIONS
  int read_unlocked() { return balance_; }  // error 1: reading balance_ without mu_
  void add_unlocked(int v) { add_locked(v); }  // error 2: calling a PP_REQUIRES function without mu_
  void write_after_unlock() {
    mutex_lock lock(mu_);
    lock.unlock();
    balance_ = 0;  // error 3: writing balance_ after the lock was dropped
  }
  void wait_unannotated() {
    mutex_lock lock(mu_);
    lock.wait(changed_, [&] { return balance_ > 0; });  // error 4: the predicate does not say it holds mu_
  }
  void write_shared() {
    reader_lock lock(log_mu_);
    ++entries_;  // error 5: writing under a shared (reader) lock
  }
#endif

 private:
  void add_locked(int v) PP_REQUIRES(mu_) { balance_ += v; }

  mutex mu_;
  std::condition_variable changed_;
  int balance_ PP_GUARDED_BY(mu_) = 0;
  shared_mutex log_mu_;
  int entries_ PP_GUARDED_BY(log_mu_) = 0;
};

}  // namespace pp

// pp::mutex and pp::shared_mutex: std::mutex / std::shared_mutex declared as clang capabilities,
// and the RAII locks that hold them (core/thread_annotations.hpp), so -Wthread-safety checks every
// PP_GUARDED_BY member. mutex_lock also waits on a std::condition_variable: it owns the
// std::unique_lock the wait needs, and the analysis treats the mutex as held across the wait
// (the condition variable re-acquires it before returning).
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#include "core/thread_annotations.hpp"

namespace pp {

class PP_CAPABILITY("mutex") mutex {
 public:
  mutex() = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;

  void lock() PP_ACQUIRE() { mu_.lock(); }
  void unlock() PP_RELEASE() { mu_.unlock(); }
  [[nodiscard]] bool try_lock() PP_TRY_ACQUIRE(true) { return mu_.try_lock(); }

 private:
  friend class mutex_lock;
  std::mutex mu_;
};

// Holds a pp::mutex for its scope. wait*() release it while blocked on the condition variable and
// hold it again when they return; a predicate runs with it held (annotate a predicate lambda that
// reads guarded members with PP_REQUIRES(mu), or test the condition in a loop around wait()).
class PP_SCOPED_CAPABILITY mutex_lock {
 public:
  explicit mutex_lock(mutex& mu) PP_ACQUIRE(mu) : lock_(mu.mu_) {}
  ~mutex_lock() PP_RELEASE() = default;
  mutex_lock(const mutex_lock&) = delete;
  mutex_lock& operator=(const mutex_lock&) = delete;

  // Drop the mutex early (or re-take it) inside the scope, e.g. to run a callback unlocked.
  void unlock() PP_RELEASE() { lock_.unlock(); }
  void lock() PP_ACQUIRE() { lock_.lock(); }

  void wait(std::condition_variable& cv) { cv.wait(lock_); }
  template <class Predicate>
  void wait(std::condition_variable& cv, Predicate pred) {
    cv.wait(lock_, std::move(pred));
  }
  template <class Clock, class Duration>
  std::cv_status wait_until(std::condition_variable& cv,
                            const std::chrono::time_point<Clock, Duration>& deadline) {
    return cv.wait_until(lock_, deadline);
  }
  template <class Clock, class Duration, class Predicate>
  bool wait_until(std::condition_variable& cv,
                  const std::chrono::time_point<Clock, Duration>& deadline, Predicate pred) {
    return cv.wait_until(lock_, deadline, std::move(pred));
  }
  template <class Rep, class Period>
  std::cv_status wait_for(std::condition_variable& cv,
                          const std::chrono::duration<Rep, Period>& timeout) {
    return cv.wait_for(lock_, timeout);
  }
  template <class Rep, class Period, class Predicate>
  bool wait_for(std::condition_variable& cv, const std::chrono::duration<Rep, Period>& timeout,
                Predicate pred) {
    return cv.wait_for(lock_, timeout, std::move(pred));
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

// Readers share it, writers hold it alone.
class PP_CAPABILITY("shared_mutex") shared_mutex {
 public:
  shared_mutex() = default;
  shared_mutex(const shared_mutex&) = delete;
  shared_mutex& operator=(const shared_mutex&) = delete;

  void lock() PP_ACQUIRE() { mu_.lock(); }
  void unlock() PP_RELEASE() { mu_.unlock(); }
  void lock_shared() PP_ACQUIRE_SHARED() { mu_.lock_shared(); }
  void unlock_shared() PP_RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds a shared_mutex exclusively for its scope.
class PP_SCOPED_CAPABILITY writer_lock {
 public:
  explicit writer_lock(shared_mutex& mu) PP_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~writer_lock() PP_RELEASE() { mu_.unlock(); }
  writer_lock(const writer_lock&) = delete;
  writer_lock& operator=(const writer_lock&) = delete;

 private:
  shared_mutex& mu_;
};

// Holds a shared_mutex shared for its scope.
class PP_SCOPED_CAPABILITY reader_lock {
 public:
  explicit reader_lock(shared_mutex& mu) PP_ACQUIRE_SHARED(mu) : mu_(mu) { mu_.lock_shared(); }
  ~reader_lock() PP_RELEASE() { mu_.unlock_shared(); }
  reader_lock(const reader_lock&) = delete;
  reader_lock& operator=(const reader_lock&) = delete;

 private:
  shared_mutex& mu_;
};

}  // namespace pp

// key_store: which proving keys are resident in host memory. Host only: a key is on disk or loaded;
// device copies are the backend's (docs/engine.md, "Who owns VRAM"). How a key is loaded is
// injected (a loader returning an opaque handle whose destruction unloads it), so the policy is
// tested with fakes: reference-counted leases (a key in use is never evicted), preload/evict, and
// least-recently-used eviction of idle keys when the byte budget is short. Give the store a
// memory_budget of its own (a slice of the host budget): only keys live in it, so eviction is what
// frees it.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
#include "engine/deadline.hpp"
#include "engine/memory_budget.hpp"

namespace pp::engine {

// An opaque resident copy of a key (the decoded key and its circuit, for the engine).
using key_handle = std::shared_ptr<const void>;

struct key_descriptor {
  std::string id;
  uint64_t bytes = 0;                        // charged to the budget while resident
  std::function<result<key_handle>()> load;  // empty: the key cannot be loaded (acquire says so)
};

class key_store;

// A key in use; while any lease lives the key stays resident. Move-only; the store must outlive it.
class [[nodiscard]] key_lease {
 public:
  key_lease() = default;
  key_lease(key_lease&& o) noexcept { *this = std::move(o); }
  key_lease& operator=(key_lease&& o) noexcept;
  key_lease(const key_lease&) = delete;
  key_lease& operator=(const key_lease&) = delete;
  ~key_lease() { reset(); }

  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] const key_handle& handle() const { return handle_; }
  void reset();

 private:
  friend class key_store;
  key_store* store_ = nullptr;
  std::string id_;
  key_handle handle_;
};

struct key_info {
  bool resident = false;
  uint32_t in_use = 0;
  uint64_t bytes = 0;
};

struct key_store_stats {
  uint64_t resident_bytes = 0;
  size_t resident_keys = 0;
  uint64_t loads = 0;
  uint64_t evictions = 0;
};

class key_store {
 public:
  explicit key_store(memory_budget& budget) : budget_(budget) {}
  // Every lease must be gone first.
  ~key_store() = default;
  key_store(const key_store&) = delete;
  key_store& operator=(const key_store&) = delete;

  // already_exists for a known id; invalid_argument for an empty id.
  status add(key_descriptor key) PP_EXCLUDES(mu_);

  // The key resident, loading it (after evicting idle keys, least recently used first, if the
  // budget is short). Waits while another caller loads it or while keys in use fill the budget.
  // not_found, invalid_argument (no loader), resource_exhausted (larger than the budget),
  // deadline_exceeded, or the loader's error.
  result<key_lease> acquire(const std::string& id, deadline d) PP_EXCLUDES(mu_);
  // acquire() and let go: the key stays resident, idle, until evicted.
  status preload(const std::string& id, deadline d);
  // Unloads it now. failed_precondition while in use or loading.
  status evict(const std::string& id) PP_EXCLUDES(mu_);

  [[nodiscard]] result<key_info> info(const std::string& id) const PP_EXCLUDES(mu_);
  [[nodiscard]] key_store_stats stats() const PP_EXCLUDES(mu_);

 private:
  friend class key_lease;
  struct entry {
    key_descriptor desc;
    key_handle handle;  // null: not resident
    memory_reservation charge;
    uint32_t refs = 0;
    bool loading = false;
    uint64_t last_use = 0;
  };
  void release(const std::string& id) PP_EXCLUDES(mu_);
  // Drops the least recently used idle resident key (not `except`); false if there is none.
  bool evict_lru_locked(const entry* except, std::vector<key_handle>& graveyard) PP_REQUIRES(mu_);
  void unload_locked(entry& e, std::vector<key_handle>& graveyard) PP_REQUIRES(mu_);
  key_lease lease_locked(entry& e) PP_REQUIRES(mu_);
  // Wakes waiters; the generation lets a waiter tell a real change from a spurious wake-up.
  void changed_locked() PP_REQUIRES(mu_);

  memory_budget& budget_;
  mutable mutex mu_;
  std::condition_variable changed_;
  // An entry is reached through keys_ (map nodes are stable, keys never removed) and read or
  // written only under mu_ too, though clang checks only the map itself.
  std::map<std::string, entry> keys_ PP_GUARDED_BY(mu_);
  uint64_t generation_ PP_GUARDED_BY(mu_) = 0;
  uint64_t tick_ PP_GUARDED_BY(mu_) = 0;  // logical clock for least-recently-used
  uint64_t loads_ PP_GUARDED_BY(mu_) = 0;
  uint64_t evictions_ PP_GUARDED_BY(mu_) = 0;
};

}  // namespace pp::engine

// key_store: one mutex over the key table; loads run outside it (seconds for a 45 GiB key) with the
// entry marked loading so other callers wait rather than load twice. Handles of evicted keys are
// destroyed after the lock is dropped, since unmapping or freeing can be slow.
#include "engine/key_store.hpp"

#include "core/status_macros.hpp"

namespace pp::engine {

key_lease& key_lease::operator=(key_lease&& o) noexcept {
  if (this != &o) {
    reset();
    store_ = o.store_;
    id_ = std::move(o.id_);
    handle_ = std::move(o.handle_);
    o.store_ = nullptr;
    o.handle_.reset();
  }
  return *this;
}

void key_lease::reset() {
  handle_.reset();
  if (store_ != nullptr) store_->release(id_);
  store_ = nullptr;
}

status key_store::add(key_descriptor key) {
  if (key.id.empty()) return invalid_argument("key store: expected a key id, got an empty one");
  mutex_lock lock(mu_);
  if (keys_.contains(key.id)) return already_exists("key store: key '" + key.id + "' already added");
  std::string id = key.id;
  keys_[id].desc = std::move(key);
  return ok_status();
}

void key_store::changed_locked() {
  ++generation_;
  changed_.notify_all();
}

key_lease key_store::lease_locked(entry& e) {
  ++e.refs;
  e.last_use = ++tick_;
  key_lease l;
  l.store_ = this;
  l.id_ = e.desc.id;
  l.handle_ = e.handle;
  return l;
}

void key_store::release(const std::string& id) {
  mutex_lock lock(mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) return;
  --it->second.refs;
  it->second.last_use = ++tick_;
  changed_locked();
}

void key_store::unload_locked(entry& e, std::vector<key_handle>& graveyard) {
  graveyard.push_back(std::move(e.handle));
  e.handle.reset();
  e.charge.release();
  ++evictions_;
  changed_locked();
}

bool key_store::evict_lru_locked(const entry* except, std::vector<key_handle>& graveyard) {
  entry* victim = nullptr;
  for (auto& [id, e] : keys_) {
    if (&e == except || !e.handle || e.refs > 0 || e.loading) continue;
    if (victim == nullptr || e.last_use < victim->last_use) victim = &e;
  }
  if (victim == nullptr) return false;
  unload_locked(*victim, graveyard);
  return true;
}

result<key_lease> key_store::acquire(const std::string& id, deadline d) {
  std::vector<key_handle> graveyard;  // destroyed on return, after the lock (declared first)
  mutex_lock lock(mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) return not_found("key store: unknown key '" + id + "'");
  entry& e = it->second;  // map nodes are stable; keys are never removed
  if (!e.desc.load) return invalid_argument("key store: key '" + id + "' has no loader");
  const uint64_t bytes = e.desc.bytes;
  if (bytes > budget_.total()) {
    return resource_exhausted("key store: key '" + id + "' needs " + std::to_string(bytes) + " bytes, the budget is " +
                              std::to_string(budget_.total()));
  }
  memory_reservation charge;
  for (;;) {
    if (!e.loading && e.handle) return lease_locked(e);
    if (!e.loading) {
      auto r = budget_.try_reserve(bytes);
      if (r.ok()) {
        charge = std::move(r).value();
        break;
      }
      if (evict_lru_locked(&e, graveyard)) continue;
    }
    if (steady_clock::now() >= d) return deadline_exceeded("key store: waited for key '" + id + "'");
    const uint64_t seen = generation_;
    if (!graveyard.empty()) {
      lock.unlock();
      graveyard.clear();
      lock.lock();
    }
    wait_until(changed_, lock, d, [&]() PP_REQUIRES(mu_) { return generation_ != seen; });
  }

  e.loading = true;
  lock.unlock();
  graveyard.clear();
  result<key_handle> loaded = e.desc.load();
  lock.lock();
  e.loading = false;
  changed_locked();
  if (!loaded.ok()) return std::move(loaded).take_status().with_context("loading key '" + id + "'");
  // A null handle would read as "not resident" while holding the charge.
  if (*loaded == nullptr) return internal_error("key store: the loader of key '" + id + "' returned no key");
  e.handle = std::move(loaded).value();
  e.charge = std::move(charge);
  ++loads_;
  return lease_locked(e);
}

status key_store::preload(const std::string& id, deadline d) {
  PP_ASSIGN_OR_RETURN(key_lease lease, acquire(id, d));
  lease.reset();
  return ok_status();
}

status key_store::evict(const std::string& id) {
  std::vector<key_handle> graveyard;
  mutex_lock lock(mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) return not_found("key store: unknown key '" + id + "'");
  entry& e = it->second;
  if (e.refs > 0 || e.loading) {
    return failed_precondition("key store: key '" + id + "' is in use (" + std::to_string(e.refs) + " leases)");
  }
  if (e.handle) unload_locked(e, graveyard);
  return ok_status();
}

result<key_info> key_store::info(const std::string& id) const {
  mutex_lock lock(mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) return not_found("key store: unknown key '" + id + "'");
  return key_info{it->second.handle != nullptr, it->second.refs, it->second.charge.bytes()};
}

key_store_stats key_store::stats() const {
  mutex_lock lock(mu_);
  key_store_stats s{0, 0, loads_, evictions_};
  for (const auto& [id, e] : keys_) {
    if (!e.handle) continue;
    s.resident_bytes += e.charge.bytes();
    ++s.resident_keys;
  }
  return s;
}

}  // namespace pp::engine

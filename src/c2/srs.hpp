// The objects behind the ABI's SRS handle. srs_object: one reference-counted view of a bellperson
// parameters file, loaded by a background thread through the engine's key_store (so every SRS
// naming one path shares one resident copy, charged once to the key budget); the first prove waits
// for it. srs_cache: the reference's `cache = true` table (groth16_srs.cuh SRS_cache): one
// srs_object per path, least recently used dropped past four, evict() drops a path's entry.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
#include "engine/key_store.hpp"
#include "engine/memory_budget.hpp"
#include "groth16/keys.hpp"

namespace pp::c2 {

// Reads a parameters file as the key store's loader: bellperson_params without the subgroup checks
// (they would dominate the read of a large file), then every point checked on its curve in
// parallel and the verifying key's points (alpha, beta, gamma, delta, ic) in the prime-order
// subgroup. Errors name the vector, index and file.
result<std::shared_ptr<const groth16::proving_key>> read_srs_file(const std::string& path);

// The query points (h, l, a, b_g1, b_g2) in the prime-order subgroup, every point checked in
// parallel (Scott's fast checks, ec/subgroup.hpp: ~1,000 field multiplications a point against a
// few for its decode; minutes of every core for a 2^24 file: run when a proof made with the key
// fails its checks, not at load).
// invalid_argument naming the vector and index of the first point outside, vectors in file order.
status check_query_subgroups(const groth16::proving_key& pk);

// Called with a loaded key just before an srs_object lets go of it (the GPUs drop their copies).
using key_release_fn = std::function<void(const groth16::proving_key&)>;

class srs_object {
 public:
  // Registers the path with the store (once per path) and starts the background load; the caller
  // holds the one reference. store must outlive the object; on_release (may be empty) runs in the
  // destructor with the key, when it was loaded.
  srs_object(engine::key_store& store, std::string path, key_release_fn on_release = {});
  ~srs_object();
  srs_object(const srs_object&) = delete;
  srs_object& operator=(const srs_object&) = delete;

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; deletes the object when it was the last.
  static void release(srs_object* p);

  // Blocks until the background load ends; the key, or why it could not be loaded (or why it was
  // refused since: refuse()).
  result<std::shared_ptr<const groth16::proving_key>> wait();
  // A proof made with the key failed its checks: check_query_subgroups, once (the outcome is kept);
  // not ok when a query point lies outside the prime-order subgroup, and wait() returns that from
  // now on.
  status check_queries_after_failed_proof();
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  engine::key_store& store_;
  const std::string path_;
  const key_release_fn on_release_;
  std::atomic<uint64_t> refs_{1};
  pp::mutex mu_;  // guards the load's outcome below
  std::condition_variable done_cv_;
  bool done_ PP_GUARDED_BY(mu_) = false;
  status load_status_ PP_GUARDED_BY(mu_);
  engine::key_lease lease_ PP_GUARDED_BY(mu_);
  std::shared_ptr<const groth16::proving_key> key_ PP_GUARDED_BY(mu_);
  pp::mutex queries_mu_;  // guards the query check's outcome, and serialises the check itself
  std::optional<status> queries_ PP_GUARDED_BY(queries_mu_);
  std::thread loader_;  // last: starts once the members above exist
};

class srs_cache {
 public:
  srs_cache(engine::key_store& store, key_release_fn on_release) : store_(store), on_release_(std::move(on_release)) {}
  ~srs_cache();
  srs_cache(const srs_cache&) = delete;
  srs_cache& operator=(const srs_cache&) = delete;

  // The path's srs_object with one more reference for the caller (created when absent).
  srs_object* lookup(const std::string& path);
  // Drops the cache's reference to the path's object, if cached.
  void evict(const std::string& path);

  static constexpr size_t capacity = 4;  // groth16_srs.cuh: pop_back() once the list holds more than 3

 private:
  engine::key_store& store_;
  const key_release_fn on_release_;  // given to every srs_object made here
  pp::mutex mu_;  // guards entries_
  std::list<std::pair<std::string, srs_object*>> entries_ PP_GUARDED_BY(mu_);  // most recently used first
};

}  // namespace pp::c2

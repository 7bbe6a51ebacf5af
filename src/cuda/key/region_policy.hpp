// region_policy: which keys a CUDA backend's device region holds (cuda_backend.hpp, "Device memory").
// The keys are planned together before anything of a key is placed (key_layout.hpp, plan_region). A
// new key is added beside the planned ones when it fits there; otherwise, once every lane is idle,
// the region is planned again for it and the most recently used keys that fit with it (every placed
// key is evicted; those of the new plan are placed again when next used), so alternating keys that
// fit together cost one re-plan, not one per switch. A key that does not fit the empty region even
// streamed is refused, naming the least budget it needs. Placing is the key_loader's (upload_key on
// the device), so the policy runs on the host with fake keys (tests/cuda/region_policy_test.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
#include "cuda/key/key_loader.hpp"
#include "cuda/key/key_residency.hpp"
#include "cuda/plan/backend_config.hpp"
#include "cuda/plan/key_layout.hpp"
#include "cuda/runtime/device_health.hpp"
#include "cuda/runtime/lane_pool.hpp"
#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"

namespace pp::cuda {

struct region_config {
  cuda_backend_config backend;  // lanes, pinning, and the settings a refusal's least budget assumes
  uint64_t capacity = 0;        // bytes of the device region the keys are planned in
  uint64_t driver_bytes = 0;    // what the driver holds for the kernels (named in refusals)
};

class region_policy {
 public:
  // lanes: the backend's lanes (a re-plan or an eviction waits for all of them); health: a failed
  // upload's CUDA error makes it unhealthy, and an unhealthy device places nothing; upload_staging:
  // the key uploads' pinned chunks (one upload at a time).
  region_policy(const region_config& cfg, lane_pool& lanes, device_health& health,
                pinned_chunk_copier upload_staging);

  // The placed entry of src's key, placed (and the region planned again) when needed, for a caller
  // that holds lane `held` (a partition) or none (nullptr: prepare). A re-plan waits for every lane,
  // `held` handed back meanwhile (the caller may get another lane), so the entry lives while the
  // caller holds its lane. Steps "key upload" and "key eviction (region planned again)" go to t.
  // failed_precondition when the key does not fit even alone (naming the least budget) or when the
  // keys in use keep planning the region again; unavailable once the device is unhealthy.
  result<key_entry*> key_for(key_loader& src, lane_hold* held, groth16::prove_timings* t) PP_EXCLUDES(mu_);

  // Which of the region's partition workspaces are free, for a caller holding a lane (a re-plan,
  // which replaces the pool, waits for that lane).
  lane_pool& workspaces() PP_EXCLUDES(mu_);

  // What the placed key `id` takes; not_found when it is not placed.
  [[nodiscard]] result<key_footprint> footprint(const key_fingerprint& id) const PP_EXCLUDES(mu_);
  // Whether a placed key's tables are those of pk (a groth16::basic_proving_key of either curve).
  [[nodiscard]] bool placed_from(const void* pk) const PP_EXCLUDES(mu_);
  // Every key forgotten once every lane is idle (the region is planned afresh on the next use). The
  // caller holds no lane.
  void evict_all() PP_EXCLUDES(mu_);
  // The same without waiting: no lane may be running a partition.
  void clear() PP_EXCLUDES(mu_);

  // The host budget's charge for a placement's streamed matrices image (cuda_backend::set_host_charge).
  void set_host_charge(host_charge_fn charge) PP_EXCLUDES(mu_);

  [[nodiscard]] uint64_t used_bytes() const PP_EXCLUDES(mu_);    // the region's plan (0 with no key planned)
  [[nodiscard]] uint64_t replans() const PP_EXCLUDES(mu_);       // re-plans for a key that did not fit beside
  [[nodiscard]] uint64_t pinned_bytes() const PP_EXCLUDES(mu_);  // held page-locked by the placed keys

 private:
  key_entry* find_locked(const key_fingerprint& id) const PP_REQUIRES(mu_);
  int planned_index_locked(const key_fingerprint& id) const PP_REQUIRES(mu_);
  uint64_t pinned_locked() const PP_REQUIRES(mu_);
  void reset_locked() PP_REQUIRES(mu_);
  result<key_entry*> place_locked(size_t i, key_loader& src) PP_REQUIRES(mu_);
  result<key_entry*> find_or_place_locked(key_loader& src, std::optional<planned_key>& replan) PP_REQUIRES(mu_);
  status replan_for(planned_key fresh) PP_EXCLUDES(mu_);

  const region_config cfg_;
  lane_pool& lanes_;
  device_health& health_;

  mutable mutex mu_;
  std::vector<planned_key> planned_ PP_GUARDED_BY(mu_);  // in the order of region_.keys
  region_plan region_ PP_GUARDED_BY(mu_);
  std::vector<std::unique_ptr<key_entry>> keys_ PP_GUARDED_BY(mu_);  // the placed ones
  // Which of the region's workspaces are free; replaced only by a re-plan, which holds every lane.
  std::unique_ptr<lane_pool> free_ws_ PP_GUARDED_BY(mu_);
  pinned_chunk_copier upload_staging_ PP_GUARDED_BY(mu_);
  uint64_t uses_ PP_GUARDED_BY(mu_) = 0;
  uint64_t replans_ PP_GUARDED_BY(mu_) = 0;
  host_charge_fn host_charge_ PP_GUARDED_BY(mu_);  // the owner of the host budget's, or empty
};

}  // namespace pp::cuda

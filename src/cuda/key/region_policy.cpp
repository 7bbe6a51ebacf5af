// region_policy.hpp: placement beside the planned keys, the LRU re-plan, eviction.
#include "cuda/key/region_policy.hpp"

#include <algorithm>
#include <chrono>
#include <span>
#include <string>
#include <utility>

#include "core/status_macros.hpp"
#include "cuda/plan/budget_plan.hpp"

namespace pp::cuda {
namespace {

using clock = std::chrono::steady_clock;

// Re-plans one call may wait for before it gives up: each is another caller's key evicting this
// one's before it was used, which only keys that do not fit together do.
constexpr int max_replans_per_call = 3;

}  // namespace

region_policy::region_policy(const region_config& cfg, lane_pool& lanes, device_health& health,
                             pinned_chunk_copier upload_staging)
    : cfg_(cfg), lanes_(lanes), health_(health), upload_staging_(std::move(upload_staging)) {}

key_entry* region_policy::find_locked(const key_fingerprint& id) const {
  for (const auto& k : keys_) {
    if (k->id == id) return k.get();
  }
  return nullptr;
}

int region_policy::planned_index_locked(const key_fingerprint& id) const {
  for (size_t i = 0; i < planned_.size(); ++i) {
    if (planned_[i].id == id) return int(i);
  }
  return -1;
}

uint64_t region_policy::pinned_locked() const {
  uint64_t b = 0;
  for (const auto& k : keys_) b += k->pinned_bytes;
  return b;
}

void region_policy::reset_locked() {
  keys_.clear();
  planned_.clear();
  region_ = {};
  free_ws_.reset();
}

// Places the region plan's key i (uploads and pins it at its planned offset). Lanes running
// partitions of other keys go on meanwhile: their memory is disjoint from it. mu_ keeps other key
// uploads out.
result<key_entry*> region_policy::place_locked(size_t i, key_loader& src) {
  const cuda_backend_config& cfg = cfg_.backend;
  auto k = std::make_unique<key_entry>();
  k->id = planned_[i].id;
  k->shape = planned_[i].shape;
  k->plan = region_.keys[i];
  k->base = region_.base[i];
  const workspace_span ws{region_.lanes_offset, region_.lane_bytes, region_.lanes};
  uint64_t pin_budget = 0;
  if (cfg.pin_streamed) {
    pin_budget = cfg.max_pinned_bytes == 0 ? ~uint64_t{0}
                                           : cfg.max_pinned_bytes - std::min(cfg.max_pinned_bytes, pinned_locked());
  }
  // The streamed matrices' image is a second host copy of the key's rows: charged to the host
  // budget before upload_key makes it, held as long as the entry.
  const uint64_t image = k->plan.matrix_image_bytes(k->shape);
  if (image != 0 && host_charge_) {
    auto charged = host_charge_(image);
    if (!charged.ok()) {
      return failed_precondition("cuda_backend: the host memory budget cannot hold the " + std::to_string(image) +
                                 " bytes of the pinned image this plan streams the matrices from (" +
                                 charged.error().message() +
                                 "); give the prover more host memory or the GPU a larger VRAM budget");
    }
    k->host_charge = std::move(charged).value();
  }
  if (status st = src.upload(*k, ws, pin_budget, upload_staging_); !st.ok()) return health_.note(std::move(st));
  keys_.push_back(std::move(k));
  return keys_.back().get();
}

// The placed entry of src's key, placing it when its plan allows without disturbing the placed keys:
// planned already, the first key, or one more guest at the region's end. nullptr (and `replan` set
// to its plan view) when the region must be planned again for it; failed_precondition when it does
// not fit even alone.
result<key_entry*> region_policy::find_or_place_locked(key_loader& src, std::optional<planned_key>& replan) {
  const cuda_backend_config& cfg = cfg_.backend;
  const key_fingerprint& id = src.id();
  if (key_entry* k = find_locked(id); k != nullptr) {
    planned_[size_t(planned_index_locked(id))].last_use = ++uses_;
    return k;
  }
  if (const int i = planned_index_locked(id); i >= 0) {
    planned_[size_t(i)].last_use = ++uses_;
    return place_locked(size_t(i), src);
  }
  PP_ASSIGN_OR_RETURN(planned_key pl, src.plan());
  pl.last_use = ++uses_;
  if (planned_.empty()) {
    auto r = plan_region(std::span<const key_shape>(&pl.shape, 1), std::span(&pl.options, 1), cfg_.capacity, cfg.lanes);
    if (!r.ok()) {
      return failed_precondition(least_budget_message(pl.shape, pl.options, cfg, cfg_.driver_bytes,
                                                      r.error().message()) +
                                 ": the key does not fit this GPU even alone");
    }
    region_ = std::move(r).value();
    planned_.push_back(std::move(pl));
    free_ws_ = std::make_unique<lane_pool>(region_.lanes);
    return place_locked(0, src);
  }
  region_plan more = region_;
  if (add_guest(more, pl.shape, pl.options, cfg_.capacity).ok()) {
    region_ = std::move(more);
    planned_.push_back(std::move(pl));
    return place_locked(planned_.size() - 1, src);
  }
  if (auto alone = plan_key(pl.shape, pl.options, cfg_.capacity, cfg.lanes); !alone.ok()) {
    return failed_precondition(least_budget_message(pl.shape, pl.options, cfg, cfg_.driver_bytes,
                                                    alone.error().message()) +
                               ": the key does not fit this GPU even alone");
  }
  replan.emplace(std::move(pl));
  return nullptr;
}

// Plans the region again for `fresh` and the most recently used planned keys that fit with it,
// evicting every placed key (they are placed again when next used). Waits for every lane: the
// caller holds none.
status region_policy::replan_for(planned_key fresh) {
  lanes_.acquire_all();
  status st = ok_status();
  {
    mutex_lock lock(mu_);
    std::vector<planned_key> set;
    for (const planned_key& p : planned_) {
      if (!(p.id == fresh.id)) set.push_back(p);
    }
    std::sort(set.begin(), set.end(),
              [](const planned_key& a, const planned_key& b) { return a.last_use > b.last_use; });
    set.insert(set.begin(), std::move(fresh));
    for (;;) {
      std::vector<key_shape> shapes;
      std::vector<std::vector<msm_chunking>> options;
      for (const planned_key& p : set) {
        shapes.push_back(p.shape);
        options.push_back(p.options);
      }
      auto r = plan_region(shapes, options, cfg_.capacity, cfg_.backend.lanes);
      if (r.ok()) {
        keys_.clear();
        planned_ = std::move(set);
        region_ = std::move(r).value();
        free_ws_ = std::make_unique<lane_pool>(region_.lanes);
        ++replans_;
        break;
      }
      if (set.size() == 1) {
        st = failed_precondition("cuda_backend: " + r.error().message() +
                                 ": the key does not fit this GPU even alone");
        break;
      }
      set.pop_back();  // the least recently used
    }
  }
  lanes_.release_all();
  return st;
}

result<key_entry*> region_policy::key_for(key_loader& src, lane_hold* held, groth16::prove_timings* t) {
  for (int round = 0;; ++round) {
    std::optional<planned_key> replan;
    {
      mutex_lock lock(mu_);
      if (!health_.healthy()) return unavailable("cuda_backend: device unhealthy after " + health_.last_error());
      const auto t0 = clock::now();
      const size_t placed = keys_.size();
      PP_ASSIGN_OR_RETURN(key_entry* k, find_or_place_locked(src, replan));
      if (k != nullptr) {
        if (t != nullptr && keys_.size() != placed) t->add("key upload", clock::now() - t0);
        return k;
      }
      if (round == max_replans_per_call) {
        return failed_precondition("cuda_backend: the keys in use made the region be planned again " +
                                   std::to_string(max_replans_per_call) +
                                   " times for one partition; they do not fit this GPU together (serve fewer "
                                   "keys per GPU or give it more memory)");
      }
    }
    const auto t0 = clock::now();
    if (held != nullptr) held->hand_back();
    const status st = replan_for(std::move(*replan));
    if (held != nullptr) held->take_again();
    PP_RETURN_IF_ERROR(st);
    if (t != nullptr) t->add("key eviction (region planned again)", clock::now() - t0);
  }
}

lane_pool& region_policy::workspaces() {
  mutex_lock lock(mu_);
  return *free_ws_;
}

result<key_footprint> region_policy::footprint(const key_fingerprint& id) const {
  mutex_lock lock(mu_);
  const key_entry* k = find_locked(id);
  if (k == nullptr) return not_found("cuda_backend: the key is not resident");
  return footprint_of(k->shape, k->plan);
}

bool region_policy::placed_from(const void* pk) const {
  mutex_lock lock(mu_);
  return std::any_of(keys_.begin(), keys_.end(), [&](const auto& k) { return k->id.pk == pk; });
}

void region_policy::evict_all() {
  lanes_.acquire_all();
  {
    mutex_lock lock(mu_);
    reset_locked();
  }
  lanes_.release_all();
}

void region_policy::clear() {
  mutex_lock lock(mu_);
  reset_locked();
}

void region_policy::set_host_charge(host_charge_fn charge) {
  mutex_lock lock(mu_);
  host_charge_ = std::move(charge);
}

uint64_t region_policy::used_bytes() const {
  mutex_lock lock(mu_);
  return planned_.empty() ? 0 : region_.bytes;
}

uint64_t region_policy::replans() const {
  mutex_lock lock(mu_);
  return replans_;
}

uint64_t region_policy::pinned_bytes() const {
  mutex_lock lock(mu_);
  return pinned_locked();
}

}  // namespace pp::cuda

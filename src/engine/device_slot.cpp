#include "engine/device_slot.hpp"

#include <algorithm>

namespace pp::engine {
namespace {

curve_mask curves_of(devices::device& d) {
  curve_mask m = 0;
  for (const ec::curve_id c : all_curves) {
    if (devices::proves(d, c)) m |= curve_bit(c);
  }
  return m;
}

// The most partitions a worker takes together: the request, capped by what the device's backends
// start together.
uint32_t together_on(devices::device& d, uint32_t requested) {
  size_t most = 1;
  for (const ec::curve_id c : all_curves) {
    ec::visit_curve(c, [&]<class Family>() {
      if (const auto* b = devices::backend_for<Family>(d)) most = std::max(most, b->partitions_together());
    });
  }
  return static_cast<uint32_t>(std::clamp<size_t>(requested, 1, most));
}

}  // namespace

device_slot::device_slot(devices::device_ptr dev, uint32_t workers, size_t queue_depth, busy_meter::clock_fn clock,
                         uint32_t partitions_together)
    : device_(std::move(dev)),
      name_(device_->name()),
      workers_(workers),
      together_(together_on(*device_, partitions_together)),
      curves_(curves_of(*device_)),
      queue_depth_(queue_depth + size_t{workers} * (together_ - 1)),
      // The dispatcher keeps load <= workers + depth, so push never waits; CRITICAL may exceed it.
      inbox_(workers + queue_depth_),
      meter_(std::move(clock)) {}

device_view device_slot::view(std::vector<std::string>& keys_out) const {
  mutex_lock lock(mu_);
  keys_out.assign(recent_.begin(), recent_.end());
  device_view v;
  v.healthy = healthy_;
  v.load = queued_ + running_;
  v.max_load = static_cast<uint32_t>(workers_ + queue_depth_);
  v.curves = curves_;
  v.keys = keys_out;
  return v;
}

void device_slot::placed() {
  mutex_lock lock(mu_);
  ++queued_;
}

void device_slot::started() {
  mutex_lock lock(mu_);
  if (queued_ > 0) --queued_;
  ++running_;
}

void device_slot::ended(bool ok, const std::string& key_id) {
  mutex_lock lock(mu_);
  if (running_ > 0) --running_;
  if (!ok) {
    ++failures_;
    return;
  }
  ++done_;
  auto it = std::find(recent_.begin(), recent_.end(), key_id);
  if (it != recent_.end()) recent_.erase(it);
  recent_.push_front(key_id);
  if (recent_.size() > recent_keys_kept) recent_.pop_back();
}

void device_slot::unplaced() {
  mutex_lock lock(mu_);
  if (queued_ > 0) --queued_;
}

bool device_slot::healthy() const {
  mutex_lock lock(mu_);
  return healthy_;
}

void device_slot::mark_faulty(std::string reason) {
  mutex_lock lock(mu_);
  if (!healthy_) return;
  healthy_ = false;
  fault_ = std::move(reason);
}

bool device_slot::take_injected_failure() {
  uint32_t n = injected_.load();
  while (n > 0) {
    if (injected_.compare_exchange_weak(n, n - 1)) return true;
  }
  return false;
}

device_slot::snapshot device_slot::read() const {
  mutex_lock lock(mu_);
  return {healthy_, fault_, running_, queued_, done_, failures_, {recent_.begin(), recent_.end()}};
}

}  // namespace pp::engine

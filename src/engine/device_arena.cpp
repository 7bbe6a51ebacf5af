// device_arena: a coalescing first-fit free list under one mutex, with the same FIFO waiter queue
// as memory_budget. Only the head waiter is tried on a release, so a large request is never starved
// by a stream of small ones.
#include "engine/device_arena.hpp"

#include <algorithm>
#include <cassert>
#include <string>

namespace pp::engine {

arena_reservation::arena_reservation(arena_reservation&& o) noexcept
    : arena_(o.arena_), regions_(std::move(o.regions_)) {
  o.arena_ = nullptr;
  o.regions_.clear();
}

arena_reservation& arena_reservation::operator=(arena_reservation&& o) noexcept {
  if (this != &o) {
    release_now();
    arena_ = o.arena_;
    regions_ = std::move(o.regions_);
    o.arena_ = nullptr;
    o.regions_.clear();
  }
  return *this;
}

void arena_reservation::release_after(std::shared_ptr<completion_event> event) {
  if (event == nullptr) {
    release_now();
    return;
  }
  device_arena* arena = arena_;
  arena_ = nullptr;
  if (arena == nullptr) return;
  event->when_complete([arena, regions = std::move(regions_)] { arena->free_regions(regions); });
  regions_.clear();
}

void arena_reservation::release_now() {
  if (arena_ != nullptr) arena_->free_regions(regions_);
  arena_ = nullptr;
  regions_.clear();
}

device_arena::device_arena(uint64_t capacity, uint64_t alignment)
    : alignment_(alignment), capacity_(capacity & ~(alignment - 1)) {
  assert(alignment != 0 && (alignment & (alignment - 1)) == 0 && "alignment must be a power of two");
  if (capacity_ > 0) free_.emplace(0, capacity_);
}

device_arena::~device_arena() {
  assert(in_use_ == 0 && queue_.empty() && "device_arena destroyed with live reservations");
}

std::optional<std::vector<arena_region>> device_arena::allocate_all_locked(std::span<const uint64_t> sizes) {
  std::vector<arena_region> out;
  out.reserve(sizes.size());
  for (const uint64_t size : sizes) {
    const uint64_t need = aligned(size);
    if (need == 0) {
      out.push_back({0, 0});
      continue;
    }
    auto it = std::find_if(free_.begin(), free_.end(), [&](const auto& b) { return b.second >= need; });
    if (it == free_.end()) {
      for (const arena_region& r : out) free_locked(r);
      return std::nullopt;
    }
    const uint64_t offset = it->first;
    const uint64_t left = it->second - need;
    free_.erase(it);
    if (left > 0) free_.emplace(offset + need, left);
    in_use_ += need;
    out.push_back({offset, size});
  }
  peak_ = std::max(peak_, in_use_);
  return out;
}

void device_arena::free_locked(const arena_region& r) {
  uint64_t offset = r.offset;
  uint64_t size = aligned(r.size);
  if (size == 0) return;
  in_use_ -= size;
  auto next = free_.lower_bound(offset);
  assert((next == free_.end() || next->first >= offset + size) && "double free in device_arena");
  if (next != free_.end() && next->first == offset + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    assert(prev->first + prev->second <= offset && "double free in device_arena");
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  free_.emplace(offset, size);
}

void device_arena::grant_waiters_locked() {
  bool any = false;
  while (!queue_.empty()) {
    waiter* w = queue_.front();
    auto regions = allocate_all_locked(w->sizes);
    if (!regions) break;
    w->regions = std::move(*regions);
    w->granted = true;
    queue_.pop_front();
    any = true;
  }
  if (any) cv_.notify_all();
}

void device_arena::free_regions(const std::vector<arena_region>& regions) {
  mutex_lock lock(mu_);
  for (const arena_region& r : regions) free_locked(r);
  grant_waiters_locked();
}

result<arena_reservation> device_arena::reserve(std::span<const uint64_t> sizes, deadline d) {
  uint64_t total = 0;
  for (const uint64_t s : sizes) {
    if (s > capacity_ || total + aligned(s) > capacity_) {
      return resource_exhausted("device arena: requested regions need more than the arena's " +
                                std::to_string(capacity_) + " bytes");
    }
    total += aligned(s);
  }
  mutex_lock lock(mu_);
  if (queue_.empty()) {
    if (auto regions = allocate_all_locked(sizes)) return arena_reservation(this, std::move(*regions));
  }
  waiter w{sizes, {}, false};
  queue_.push_back(&w);
  wait_until(cv_, lock, d, [&] { return w.granted; });
  if (!w.granted) {
    queue_.remove(&w);
    grant_waiters_locked();
    return deadline_exceeded("device arena: waited for " + std::to_string(total) + " bytes (" +
                             std::to_string(in_use_) + " of " + std::to_string(capacity_) + " in use)");
  }
  return arena_reservation(this, std::move(w.regions));
}

device_arena_stats device_arena::stats() const {
  mutex_lock lock(mu_);
  device_arena_stats s{capacity_, in_use_, peak_, queue_.size(), free_.size(), 0};
  for (const auto& [off, size] : free_) s.largest_free_block = std::max(s.largest_free_block, size);
  return s;
}

}  // namespace pp::engine

// device_arena: host-side bookkeeping of a device memory region reserved once at start. Workers
// reserve all the per-partition regions they need in one call (blocking, FIFO-fair, with a
// deadline), and the regions come back when the device work using them completes (an event), so
// the sum of live regions can never exceed the arena. Offsets are relative to the arena's base;
// the CUDA backend adds its base pointer. Knows nothing of CUDA, so it runs with fake devices.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
#include "engine/completion_event.hpp"
#include "engine/deadline.hpp"

namespace pp::engine {

class device_arena;

struct arena_region {
  uint64_t offset = 0;  // from the arena's base, a multiple of the alignment
  uint64_t size = 0;    // as requested (the arena holds it rounded up to the alignment)
};

// Regions held from a device_arena; move-only. Give them back with release_after(event) once device
// work using them has been enqueued; destruction without that releases at once (only correct when
// no device work touches the regions, e.g. the upload failed before any launch).
class [[nodiscard]] arena_reservation {
 public:
  arena_reservation() = default;
  arena_reservation(arena_reservation&& o) noexcept;
  arena_reservation& operator=(arena_reservation&& o) noexcept;
  arena_reservation(const arena_reservation&) = delete;
  arena_reservation& operator=(const arena_reservation&) = delete;
  ~arena_reservation() { release_now(); }

  [[nodiscard]] std::span<const arena_region> regions() const { return regions_; }
  [[nodiscard]] const arena_region& operator[](size_t i) const { return regions_[i]; }
  [[nodiscard]] bool empty() const { return regions_.empty(); }

  // The regions return to the arena when `event` fires (null: now). The reservation is empty after.
  void release_after(std::shared_ptr<completion_event> event);
  void release_now();

 private:
  friend class device_arena;
  arena_reservation(device_arena* arena, std::vector<arena_region> regions)
      : arena_(arena), regions_(std::move(regions)) {}
  device_arena* arena_ = nullptr;
  std::vector<arena_region> regions_;
};

struct device_arena_stats {
  uint64_t capacity = 0;
  uint64_t in_use = 0;  // aligned bytes held, including regions waiting on their event
  uint64_t peak = 0;
  size_t waiters = 0;
  size_t free_blocks = 0;
  uint64_t largest_free_block = 0;
};

class device_arena {
 public:
  static constexpr uint64_t default_alignment = 256;  // cudaMalloc's guarantee; coalesced loads want it

  // capacity is rounded down to the alignment (a power of two).
  explicit device_arena(uint64_t capacity, uint64_t alignment = default_alignment);
  // Every reservation, and every event it waits on, must be gone first.
  ~device_arena();
  device_arena(const device_arena&) = delete;
  device_arena& operator=(const device_arena&) = delete;

  // Reserves one region per size, all or nothing (holding some while waiting for others is how two
  // workers deadlock), waiting in arrival order behind earlier requests. resource_exhausted at once
  // if the sizes could not fit even in an empty arena; deadline_exceeded when the deadline passes.
  result<arena_reservation> reserve(std::span<const uint64_t> sizes, deadline d) PP_EXCLUDES(mu_);
  result<arena_reservation> reserve(uint64_t size, deadline d) { return reserve(std::span(&size, 1), d); }

  [[nodiscard]] device_arena_stats stats() const PP_EXCLUDES(mu_);
  [[nodiscard]] uint64_t capacity() const { return capacity_; }
  [[nodiscard]] uint64_t alignment() const { return alignment_; }
  [[nodiscard]] uint64_t aligned(uint64_t size) const { return (size + alignment_ - 1) & ~(alignment_ - 1); }

 private:
  friend class arena_reservation;
  // Lives on its reserve() caller's stack; regions and granted are written under mu_.
  struct waiter {
    std::span<const uint64_t> sizes;
    std::vector<arena_region> regions;
    bool granted = false;
  };
  // First fit over the free list; all or nothing.
  std::optional<std::vector<arena_region>> allocate_all_locked(std::span<const uint64_t> sizes) PP_REQUIRES(mu_);
  void free_locked(const arena_region& r) PP_REQUIRES(mu_);
  void free_regions(const std::vector<arena_region>& regions) PP_EXCLUDES(mu_);
  void grant_waiters_locked() PP_REQUIRES(mu_);

  const uint64_t alignment_;
  const uint64_t capacity_;
  mutable mutex mu_;
  std::condition_variable cv_;
  std::map<uint64_t, uint64_t> free_ PP_GUARDED_BY(mu_);  // offset -> size, non-adjacent (coalesced)
  uint64_t in_use_ PP_GUARDED_BY(mu_) = 0;
  uint64_t peak_ PP_GUARDED_BY(mu_) = 0;
  std::list<waiter*> queue_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::engine

// device_memory: the CUDA backend's device region (docs/engine.md, "Who owns VRAM"). At start it
// takes one region of device memory with a single cudaMalloc (a configurable share of free VRAM,
// capped: the VRAM budget) and a few pinned host staging buffers with cudaHostAlloc; afterwards it
// only turns offsets into pointers. Who holds which offsets is the backend's key plans' business
// (key_layout.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/result.hpp"

namespace pp::cuda {

struct device_memory_config {
  int device = 0;
  double vram_share = 0.9;      // of the free memory at start, in (0, 1]
  uint64_t max_bytes = 0;       // cap on the region (0: none)
  uint64_t keep_free_bytes = 0; // left free besides the share (driver, other processes)
  std::size_t staging_buffers = 2;  // pinned host buffers, e.g. one per worker copy stream
  uint64_t staging_bytes = 0;       // each (0: none)
  uint64_t tail_bytes = 0;  // kept at the region's end, outside capacity(): tail() (a link pacer's state)
};

class device_memory {
 public:
  static constexpr uint64_t granularity = uint64_t{2} << 20;  // region size rounded down to 2 MiB

  // Validates the config, selects the device, takes the region and the staging buffers.
  // resource_exhausted when the share comes to less than one granule or an allocation fails.
  static result<std::unique_ptr<device_memory>> create(const device_memory_config& cfg);
  ~device_memory();  // frees everything; no device work may still use it
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;

  [[nodiscard]] int device() const { return device_; }
  [[nodiscard]] uint64_t capacity() const { return capacity_; }
  [[nodiscard]] void* base() const { return d_base_; }
  // The config's tail_bytes behind the region (nullptr when none were asked for).
  [[nodiscard]] void* tail() const { return tail_bytes_ == 0 ? nullptr : static_cast<std::byte*>(d_base_) + capacity_; }

  // The device pointer of [offset, offset + size); invalid_argument outside the region.
  [[nodiscard]] result<void*> region(uint64_t offset, uint64_t size) const;
  template <class T>
  [[nodiscard]] result<T*> region_as(uint64_t offset, uint64_t count) const {
    auto r = region(offset, count * sizeof(T));
    if (!r.ok()) return std::move(r).take_status();
    return static_cast<T*>(*r);
  }

  [[nodiscard]] std::size_t staging_count() const { return h_staging_.size(); }
  [[nodiscard]] std::span<std::byte> staging(std::size_t i) const {
    return {static_cast<std::byte*>(h_staging_[i]), staging_bytes_};
  }

 private:
  device_memory() = default;
  int device_ = 0;
  void* d_base_ = nullptr;
  uint64_t capacity_ = 0;
  std::vector<void*> h_staging_;
  uint64_t staging_bytes_ = 0;
  uint64_t tail_bytes_ = 0;
};

}  // namespace pp::cuda

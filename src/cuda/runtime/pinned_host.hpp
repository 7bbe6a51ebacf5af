// pinned_host: page-locks host memory that already holds a key's point tables (cudaHostRegister, no
// copy), so that streamed chunks go to the device by DMA at full PCIe speed. Ranges are shared:
// backends streaming the same key pin it once; the last holder's release unpins it. Plain C++ header.
#pragma once
#include <cstdint>
#include <memory>

#include "core/result.hpp"

namespace pp::cuda {

// Device memory the driver takes, outside any allocation of ours, to map `host_bytes` page-locked
// with cudaHostRegister into the device's address space: 8 bytes per 4 KiB page (2 MiB per GiB; the
// 8 MiB by which a 4.5 GiB matrix image took a 16 GiB budget over, docs/perf/vram-budgets.md).
constexpr uint64_t pin_mapping_bytes(uint64_t host_bytes) { return (host_bytes + 511) / 512; }

// One hold on a pinned range; releasing the last hold unregisters it. Move-only.
class pinned_range {
 public:
  pinned_range() = default;
  ~pinned_range();
  pinned_range(pinned_range&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  pinned_range& operator=(pinned_range&& o) noexcept;
  pinned_range(const pinned_range&) = delete;
  pinned_range& operator=(const pinned_range&) = delete;

  // Pins [p, p + bytes) or adds a hold on it when it is pinned already (the same p and bytes).
  // internal when CUDA refuses (locked-memory limits, or the host cannot spare it): the caller then
  // streams from pageable memory, correct but slower.
  static result<pinned_range> pin(const void* p, uint64_t bytes);

  // Bytes pinned by this process through pinned_range (every range counted once).
  static uint64_t pinned_bytes();

 private:
  explicit pinned_range(const void* p) : p_(p) {}
  const void* p_ = nullptr;
};

}  // namespace pp::cuda

// pinned_chunk_plan: where the chunks of a pinned_chunk_copier (pinned_chunk_copier.hpp) lie in
// pinned host memory: in memory of the copier's own, or inside memory a caller lends (a lane's
// staging), as equal chunks that start on a copy-friendly boundary, each as large as the memory
// allows up to a cap. Plain C++ header: tested on the host (tests/cuda/pinned_chunk_plan_test.cpp).
#pragma once
#include <algorithm>
#include <cstdint>

namespace pp::cuda {

struct pinned_chunk_plan {
  // Every lent chunk starts and ends on this boundary: the DMA engine's preferred alignment, and a
  // whole number of every element the copies carry (32-byte scalars, 48- and 96-byte points).
  static constexpr uint64_t align = 256;

  uint64_t skip = 0;         // bytes from the memory's start to the first chunk
  uint64_t chunk_bytes = 0;  // each chunk's size
  uint32_t chunks = 0;       // 0: the memory holds none of the size the caller accepts

  // `chunks` equal chunks inside [base, base + bytes): from the first aligned address, each a whole
  // number of align units, as large as fits but at most max_chunk_bytes; none when that is smaller
  // than min_chunk_bytes (or than one unit).
  static constexpr pinned_chunk_plan inside(uint64_t base, uint64_t bytes, uint32_t chunks, uint64_t min_chunk_bytes,
                                           uint64_t max_chunk_bytes) {
    const uint64_t skip = (align - base % align) % align;
    if (chunks == 0 || bytes < skip) return {};
    const uint64_t each = std::min((bytes - skip) / chunks / align * align, max_chunk_bytes / align * align);
    if (each == 0 || each < min_chunk_bytes) return {};
    return {skip, each, chunks};
  }

  // What the copier needs: two chunks or more (one filled while another is sent) of a byte or more.
  [[nodiscard]] constexpr bool usable() const { return chunks >= 2 && chunk_bytes > 0; }
  // Bytes from the memory's start to the last chunk's end.
  [[nodiscard]] constexpr uint64_t end() const { return skip + uint64_t{chunks} * chunk_bytes; }
};

}  // namespace pp::cuda

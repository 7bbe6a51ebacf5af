// witness_layout: the byte layout of a packed witness (witness_upload.hpp), the same on host and
// device: bitmap of the 0/1 values (u32 words), positions of the others (u32), their values (fr),
// each section 256-byte aligned. Plain C++: the VRAM plan sizes the upload workspace with it.
#pragma once
#include <cstdint>
#include <span>

#include "ff/fr.hpp"

namespace pp::cuda {

struct compact_witness_layout {
  uint64_t num_variables = 0;
  uint64_t num_other = 0;  // values other than 0 and 1
  uint64_t bitmap_words = 0;
  uint64_t positions_offset = 0;
  uint64_t values_offset = 0;
  uint64_t bytes = 0;  // what is copied, and the device workspace of upload_witness

  static constexpr compact_witness_layout make(uint64_t num_variables, uint64_t num_other) {
    const auto pad256 = [](uint64_t b) { return (b + 255) / 256 * 256; };
    compact_witness_layout l;
    l.num_variables = num_variables;
    l.num_other = num_other;
    l.bitmap_words = (num_variables + 31) / 32;
    l.positions_offset = pad256(l.bitmap_words * 4);
    l.values_offset = l.positions_offset + pad256(num_other * 4);
    l.bytes = l.values_offset + num_other * sizeof(ff::fr);
    return l;
  }
  [[nodiscard]] uint64_t plain_bytes() const { return num_variables * sizeof(ff::fr); }
};

// Number of values of w that are neither 0 nor 1 (parallel): what its packed layout holds besides
// the bitmap. Instantiated for both curves' Fr (witness_layout.cpp).
template <class Fr>
uint64_t count_other_values(std::span<const Fr> w);

// The packed layout of w.
template <class Fr>
compact_witness_layout packed_layout_of(std::span<const Fr> w) {
  return compact_witness_layout::make(w.size(), count_other_values(w));
}

}  // namespace pp::cuda

// A PoRep-shaped bellperson parameters image (formats/bellperson_params.hpp) for the benchmarks that
// read it (formats_params_read_bench) and upload it (cuda_key_upload_bench): 64 distinct encoded
// points tiled through every table, so building it costs copies, not curve arithmetic.
#pragma once

#include <cstdint>
#include <functional>

namespace pp::test {

// Point counts of the five tables at 2^k: h 2^k - 1, l 2^k, a 2^k - 2^k/300 (A's aux density 99.7%),
// b_g1 = b_g2 2^k / 4 (B's 25%); ic is 2.
struct bellperson_shape {
  uint64_t counts[5];  // h, l, a, b_g1, b_g2
};
bellperson_shape porep_bellperson_shape(int log_n);

uint64_t bellperson_image_bytes(const bellperson_shape& shape);

// Writes the image through put(bytes, size, offset), the points in blocks of 2^16 on every core (put
// is called from several threads, never for overlapping ranges); returns the image's size.
using image_sink = std::function<void(const uint8_t* bytes, uint64_t size, uint64_t offset)>;
uint64_t write_bellperson_image(const bellperson_shape& shape, const image_sink& put);

}  // namespace pp::test

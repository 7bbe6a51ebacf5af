// Host half of the compact witness upload (witness_upload.hpp): packing with oneTBB (the count of
// values other than 0/1 per block of variables, then each block written at its prefix sum).
#include <tbb/parallel_for.h>

#include <cstring>
#include <string>
#include <vector>

#include "cuda/spmv/witness_upload.hpp"

namespace pp::cuda {
namespace {

constexpr uint64_t chunk = uint64_t{1} << 16;  // variables per task, a multiple of 32

template <class Fr>
bool is_bit(const Fr& v, const Fr& one) {
  return v.is_zero() || v == one;
}

}  // namespace

template <class Fr>
result<compact_witness_layout> pack_witness(std::span<const Fr> w, std::span<std::byte> h_staging) {
  const Fr one = Fr::one();
  const uint64_t n = w.size();
  const uint64_t chunks = (n + chunk - 1) / chunk;
  std::vector<uint64_t> start(chunks + 1, 0);
  tbb::parallel_for(uint64_t{0}, chunks, [&](uint64_t c) {
    uint64_t k = 0;
    for (uint64_t i = c * chunk, e = std::min(n, (c + 1) * chunk); i < e; ++i) k += is_bit(w[i], one) ? 0 : 1;
    start[c + 1] = k;
  });
  for (uint64_t c = 0; c < chunks; ++c) start[c + 1] += start[c];
  const compact_witness_layout l = compact_witness_layout::make(n, start[chunks]);
  if (l.bytes > h_staging.size()) {
    return resource_exhausted("pack_witness: " + std::to_string(l.bytes) + " bytes needed (" +
                              std::to_string(l.num_other) + " values other than 0/1), staging buffer has " +
                              std::to_string(h_staging.size()));
  }
  std::byte* base = h_staging.data();
  auto* bitmap = reinterpret_cast<uint32_t*>(base);
  auto* positions = reinterpret_cast<uint32_t*>(base + l.positions_offset);
  auto* values = reinterpret_cast<Fr*>(base + l.values_offset);
  tbb::parallel_for(uint64_t{0}, chunks, [&](uint64_t c) {
    uint64_t k = start[c];
    const uint64_t b = c * chunk, e = std::min(n, (c + 1) * chunk);
    for (uint64_t word = b / 32; word * 32 < e; ++word) {
      uint32_t bits = 0;
      for (uint64_t i = word * 32, we = std::min(e, word * 32 + 32); i < we; ++i) {
        const Fr& v = w[i];
        if (v.is_zero()) continue;
        if (v == one) {
          bits |= uint32_t{1} << (i % 32);
        } else {
          positions[k] = uint32_t(i);
          std::memcpy(&values[k], &v, sizeof(Fr));
          ++k;
        }
      }
      bitmap[word] = bits;
    }
  });
  return l;
}

template result<compact_witness_layout> pack_witness(std::span<const ff::fr>, std::span<std::byte>);
template result<compact_witness_layout> pack_witness(std::span<const ff::bn254::fr>, std::span<std::byte>);

}  // namespace pp::cuda

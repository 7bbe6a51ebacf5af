#include "support/bellperson_image.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "ec/ec.hpp"
#include "ec/encoding.hpp"

namespace pp::test {
namespace {

constexpr uint64_t ic_count = 2;

template <class Curve>
std::vector<std::vector<uint8_t>> encodings(int count) {
  std::vector<std::vector<uint8_t>> out;
  auto p = ec::generator<Curve>();
  for (int i = 0; i < count; ++i) {
    const auto e = ec::encode_uncompressed(p);
    out.emplace_back(e.begin(), e.end());
    p = ec::to_affine(ec::add(ec::scalar_mul(p, ff::fr::from_uint(3)), ec::generator<Curve>()));
  }
  return out;
}

}  // namespace

bellperson_shape porep_bellperson_shape(int log_n) {
  const uint64_t n = uint64_t{1} << log_n;
  return {{n - 1, n, n - n / 300, n / 4, n / 4}};
}

uint64_t bellperson_image_bytes(const bellperson_shape& shape) {
  uint64_t bytes = 3 * 96 + 3 * 192 + 4 + ic_count * 96;  // the verifying key's points, then ic
  for (int t = 0; t < 5; ++t) bytes += 4 + shape.counts[t] * (t == 4 ? 192 : 96);
  return bytes;
}

uint64_t write_bellperson_image(const bellperson_shape& shape, const image_sink& put) {
  const auto g1 = encodings<ec::g1_curve>(64);
  const auto g2 = encodings<ec::g2_curve>(64);
  uint64_t at = 0;
  // alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2
  for (const auto* e : {&g1[0], &g1[1], &g2[0], &g2[1], &g1[2], &g2[2]}) {
    put(e->data(), e->size(), at);
    at += e->size();
  }
  const auto put_points = [&](const std::vector<std::vector<uint8_t>>& enc, uint64_t count) {
    const uint8_t c[4] = {uint8_t(count >> 24), uint8_t(count >> 16), uint8_t(count >> 8), uint8_t(count)};
    put(c, 4, at);
    at += 4;
    const uint64_t size = enc[0].size(), block = uint64_t{1} << 16;
    tbb::parallel_for(uint64_t{0}, (count + block - 1) / block, [&](uint64_t k) {
      const uint64_t lo = k * block, hi = std::min(count, lo + block);
      std::vector<uint8_t> buf((hi - lo) * size);
      for (uint64_t i = lo; i < hi; ++i) std::copy(enc[i % enc.size()].begin(), enc[i % enc.size()].end(), buf.begin() + (i - lo) * size);
      put(buf.data(), buf.size(), at + lo * size);
    });
    at += count * size;
  };
  put_points(g1, ic_count);
  for (int t = 0; t < 5; ++t) put_points(t == 4 ? g2 : g1, shape.counts[t]);
  return at;
}

}  // namespace pp::test

// Host-made MSM inputs (msm_points.hpp).
#include "msm_points.hpp"

#include <algorithm>
#include <thread>

#include "ec/batch_to_affine.hpp"
#include "ec/ec.hpp"

namespace pp::cuda::test {

template <class Curve>
std::vector<ec::affine<Curve>> random_points(uint64_t seed, uint64_t n) {
  using fr = typename Curve::scalar_field;
  std::mt19937_64 rng(seed);
  const fr k = random_scalar<fr>(rng), s = random_scalar<fr>(rng);
  const auto g = ec::generator<Curve>();
  const auto step = ec::to_affine(ec::scalar_mul(g, s));
  std::vector<ec::affine<Curve>> out(n);
  const uint64_t threads = std::max<uint64_t>(1, std::min<uint64_t>(std::thread::hardware_concurrency(), 64));
  const uint64_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (uint64_t t = 0; t < threads; ++t) {
    const uint64_t lo = t * chunk, hi = std::min(n, lo + chunk);
    if (lo >= hi) break;
    pool.emplace_back([&, lo, hi] {
      auto acc = ec::scalar_mul(g, k + s * fr::from_uint(lo));
      std::vector<ec::jacobian<Curve>> j(hi - lo);
      for (uint64_t i = lo; i < hi; ++i) {
        j[i - lo] = acc;
        acc = ec::add(acc, step);
      }
      ec::batch_to_affine(j.data(), out.data() + lo, hi - lo);
    });
  }
  for (auto& th : pool) th.join();
  return out;
}

template std::vector<ec::g1_affine> random_points<ec::g1_curve>(uint64_t, uint64_t);
template std::vector<ec::g2_affine> random_points<ec::g2_curve>(uint64_t, uint64_t);
template std::vector<ec::affine<ec::bn254::g1_curve>> random_points<ec::bn254::g1_curve>(uint64_t, uint64_t);
template std::vector<ec::affine<ec::bn254::g2_curve>> random_points<ec::bn254::g2_curve>(uint64_t, uint64_t);

}  // namespace pp::cuda::test

// Host-side inputs for the device benchmarks: a walk of G1 or G2 points, converted with one inversion.
#include "bench_points.hpp"

#include <random>

#include "ec/batch_to_affine.hpp"
#include "ec/ec.hpp"

namespace pp::cuda::bench {

template <class Curve>
std::vector<ec::affine<Curve>> random_points(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  auto acc = ec::scalar_mul(ec::generator<Curve>(), ff::fr::from_uint(rng() | 1));
  const auto step = ec::to_affine(ec::scalar_mul(ec::generator<Curve>(), ff::fr::from_uint(rng() | 1)));
  std::vector<ec::jacobian<Curve>> j(n);
  for (int i = 0; i < n; ++i) {
    j[i] = acc;
    acc = ec::add(acc, step);
  }
  std::vector<ec::affine<Curve>> out(n);
  ec::batch_to_affine(j.data(), out.data(), static_cast<size_t>(n));
  return out;
}

template std::vector<ec::g1_affine> random_points<ec::g1_curve>(uint64_t, int);
template std::vector<ec::g2_affine> random_points<ec::g2_curve>(uint64_t, int);

}  // namespace pp::cuda::bench

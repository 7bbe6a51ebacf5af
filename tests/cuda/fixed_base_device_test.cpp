// GPU fixed-base multiplication (src/cuda/setup/fixed_base_device.hpp) against the host window table
// (groth16::fixed_base_table) on fresh random scalars: G1 and G2; 0, 1, r - 1, 2^k and all-ones
// windows; n = 1, 2, 3 and around multiples of a small chunk (both slots, several rounds); base
// switches; and whole setup_insecure keys with the GPU multiplier against the host one, both H
// bases. Exits 77 without a GPU (gpu_test_main.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "cuda/setup/fixed_base_device.hpp"
#include "ec/ec.hpp"
#include "ec/scalar_mul.hpp"
#include "gpu_test_util.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

using ff::fr;

// 0, 1, r - 1, 2, every 2^k, 2^k - 1 (all-ones windows below k), and r - 2^k.
std::vector<fr> edge_scalars() {
  std::vector<fr> e = {fr::zero(), fr::one(), -fr::one(), fr::from_uint(2)};
  fr p = fr::one();
  for (int k = 0; k < 255; ++k, p = p.dbl()) {
    e.push_back(p);
    e.push_back(p - fr::one());
    e.push_back(-p);
  }
  return e;
}

// n scalars: the edge cases first (as many as fit), then uniform ones, a zero every 17th.
std::vector<fr> scalars(std::mt19937_64& rng, uint64_t n) {
  const auto edges = edge_scalars();
  std::vector<fr> k(n);
  for (uint64_t i = 0; i < n; ++i) {
    k[i] = i < edges.size() ? edges[i] : (i % 17 == 0 ? fr::zero() : random_element<fr>(rng));
  }
  return k;
}

template <class Curve>
status device_mul(fixed_base_device& dev, const ec::affine<Curve>& base, std::span<const fr> k,
                  std::span<ec::affine<Curve>> out) {
  if constexpr (std::is_same_v<Curve, ec::g1_curve>) {
    return dev.mul_g1(base, k, out);
  } else {
    return dev.mul_g2(base, k, out);
  }
}

std::unique_ptr<fixed_base_device> make_device(uint64_t chunk) {
  auto d = fixed_base_device::create({.device = 0, .chunk = chunk});
  EXPECT_THAT(d, IsOk()) << (d.ok() ? "" : d.error().to_string());
  return d.ok() ? std::move(*d) : nullptr;
}

template <class Curve>
class FixedBaseDevice : public ::testing::Test {};
using curves = ::testing::Types<ec::g1_curve, ec::g2_curve>;
TYPED_TEST_SUITE(FixedBaseDevice, curves);

// Sizes around the chunk boundaries with a 64-scalar chunk, the generator and a random base
// alternating (each switch re-uploads the table).
TYPED_TEST(FixedBaseDevice, MatchesHostTable) {
  using C = TypeParam;
  std::mt19937_64 rng(pp::test::test_seed());
  constexpr uint64_t chunk = 64;
  auto dev = make_device(chunk);
  ASSERT_TRUE(dev);
  const ec::affine<C> bases[2] = {ec::generator<C>(),
                                  ec::to_affine(ec::scalar_mul(ec::generator<C>(), random_element<fr>(rng)))};
  const groth16::fixed_base_table<C> tables[2] = {groth16::fixed_base_table<C>(bases[0]),
                                                  groth16::fixed_base_table<C>(bases[1])};
  int round = 0;
  for (uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{3}, chunk - 1, chunk, chunk + 1, 2 * chunk, 2 * chunk + 1,
                     3 * chunk + 5, uint64_t{800}}) {
    const int b = round++ % 2;
    const std::vector<fr> k = scalars(rng, n);
    const std::vector<ec::affine<C>> want = tables[b].mul_batch(k);
    std::vector<ec::affine<C>> got(n, ec::generator<C>());
    const status st = device_mul<C>(*dev, bases[b], k, got);
    ASSERT_THAT(st, IsOk());
    EXPECT_EQ(count_mismatches(C::name, want, got), 0) << "n = " << n << ", base " << b;
  }
  // The first window-zero scalar gives the stored infinity.
  std::vector<ec::affine<C>> one(1, ec::generator<C>());
  const fr zero = fr::zero();
  ASSERT_TRUE(device_mul<C>(*dev, bases[0], std::span<const fr>(&zero, 1), one).ok());
  EXPECT_TRUE(ec::is_infinity(one[0]) && one[0].x.is_zero() && one[0].y.is_zero());
}

// Many chunks of a mid-size chunk: the two slots alternate for tens of rounds.
TYPED_TEST(FixedBaseDevice, ManyChunks) {
  using C = TypeParam;
  std::mt19937_64 rng(pp::test::test_seed());
  auto dev = make_device(uint64_t{1} << 12);
  ASSERT_TRUE(dev);
  const uint64_t n = (uint64_t{1} << 16) + 3;
  const std::vector<fr> k = scalars(rng, n);
  const groth16::fixed_base_table<C> table(ec::generator<C>());
  const std::vector<ec::affine<C>> want = table.mul_batch(k);
  std::vector<ec::affine<C>> got(n);
  const status st = device_mul<C>(*dev, ec::generator<C>(), k, got);
  ASSERT_THAT(st, IsOk());
  EXPECT_EQ(count_mismatches(C::name, want, got), 0);
}

TEST(FixedBaseDeviceSetup, Refusals) {
  EXPECT_EQ(fixed_base_device::create({.device = 0, .chunk = 0}).error().code(), status_code::invalid_argument);
  auto dev = make_device(16);
  ASSERT_TRUE(dev);
  std::vector<fr> k(3, fr::one());
  std::vector<ec::g1_affine> out(2);
  EXPECT_EQ(dev->mul_g1(ec::generator<ec::g1_curve>(), k, out).code(), status_code::invalid_argument);
  EXPECT_THAT(dev->mul_g1(ec::generator<ec::g1_curve>(), {}, {}), IsOk());
  // Still usable after a refusal.
  out.resize(3);
  ASSERT_THAT(dev->mul_g1(ec::generator<ec::g1_curve>(), k, out), IsOk());
  EXPECT_TRUE(out[2] == ec::generator<ec::g1_curve>());
}

void expect_same_key(const groth16::proving_key& want, const groth16::proving_key& got) {
  EXPECT_EQ(want.basis, got.basis);
  EXPECT_EQ(want.n_vars, got.n_vars);
  EXPECT_EQ(want.domain_size, got.domain_size);
  EXPECT_EQ(count_mismatches("a", want.a, got.a), 0);
  EXPECT_EQ(count_mismatches("b_g1", want.b_g1, got.b_g1), 0);
  EXPECT_EQ(count_mismatches("b_g2", want.b_g2, got.b_g2), 0);
  EXPECT_EQ(count_mismatches("l", want.l, got.l), 0);
  EXPECT_EQ(count_mismatches("h", want.h, got.h), 0);
  EXPECT_EQ(count_mismatches("ic", want.vk.ic, got.vk.ic), 0);
  EXPECT_TRUE(want.vk.alpha_g1 == got.vk.alpha_g1 && want.vk.beta_g1 == got.vk.beta_g1 &&
              want.vk.beta_g2 == got.vk.beta_g2 && want.vk.gamma_g2 == got.vk.gamma_g2 &&
              want.vk.delta_g1 == got.vk.delta_g1 && want.vk.delta_g2 == got.vk.delta_g2);
  ASSERT_EQ(want.a_density.has_value(), got.a_density.has_value());
  ASSERT_EQ(want.b_density.has_value(), got.b_density.has_value());
  if (want.a_density) {
    EXPECT_EQ(want.a_density->words, got.a_density->words);
  }
  if (want.b_density) {
    EXPECT_EQ(want.b_density->words, got.b_density->words);
  }
}

// A whole key: 3000 constraints (n = 4096) with a chunk that splits every query.
TEST(FixedBaseDeviceSetup, SetupInsecureMatchesHost) {
  const uint64_t seed = pp::test::test_seed();
  r1cs::synthetic_params p;
  p.num_constraints = 3000;
  p.num_public = 3;
  p.num_aux = 3500;
  p.seed = seed;
  auto circuit = r1cs::make_synthetic(p);
  ASSERT_THAT(circuit, IsOk());
  const groth16::toxic_waste_insecure tw = groth16::toxic_waste_from_seed_insecure(seed ^ 0x5eed);
  auto dev = make_device(1000);
  ASSERT_TRUE(dev);
  for (groth16::h_basis basis : {groth16::h_basis::odd_coset_lagrange, groth16::h_basis::monomial}) {
    auto want = groth16::setup_insecure(circuit->cs, basis, tw);
    auto got = groth16::setup_insecure(circuit->cs, basis, tw, *dev);
    ASSERT_THAT(want, IsOk());
    ASSERT_THAT(got, IsOk());
    expect_same_key(*want, *got);
  }
}

}  // namespace
}  // namespace pp::cuda::test

// The device path of the Montgomery fields (src/ff/mont_{mul,dot,sqr}_device.hpp), the
// code the GPU kernels run, executed on the host through the PTX carry model (ptx_carry_model.hpp)
// and checked against GMP: every result, and every carry the code drops on the strength of a bound.
// Edge values, values whose 32-bit limbs are 0, 1 or all ones, and fresh random values each run.
#include "ptx_carry_model.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "ff/bn254_fp.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

constexpr int kRandomPairs = 100000;

template <class F>
struct limbs_of {
  uint64_t v[F::n64];
  explicit limbs_of(const mpz_class& z) { mpz_to_limbs(z, v, F::n64); }
  limbs_of() : v{} {}
  mpz_class mpz() const { return limbs_to_mpz(v, F::n64); }
};

// A value whose 32-bit limbs are each 0, 1, 2^32 - 2, 2^32 - 1 or random, reduced mod m: long
// carry and borrow runs inside the chains.
template <class F>
mpz_class patterned_value(std::mt19937_64& rng, const mpz_class& m) {
  uint64_t l[F::n64];
  for (auto& limb : l) {
    limb = 0;
    for (int half = 0; half < 2; ++half) {
      const uint32_t choices[] = {0, 1, 0xfffffffeu, 0xffffffffu, uint32_t(rng())};
      limb |= uint64_t(choices[rng() % 5]) << (32 * half);
    }
  }
  return mod(limbs_to_mpz(l, F::n64), m);
}

// The edge values of gmp_oracle.hpp plus 2^32 - 1, 2^64 and m - (R mod m); then patterned and
// random values.
template <class F>
std::vector<mpz_class> value_pool(std::mt19937_64& rng) {
  const mpz_class m = modulus<F>();
  std::vector<mpz_class> pool = edge_values(m);
  pool.push_back(mpz_class(0xffffffffu));
  pool.push_back(mpz_class(1) << 64);
  pool.push_back(m - mod(radix<F>(), m));
  for (int i = 0; i < 500; ++i) pool.push_back(patterned_value<F>(rng, m));
  for (int i = 0; i < 500; ++i) pool.push_back(random_field_value(rng, m));
  return pool;
}

// Runs op on the device path from a fresh flag; fails on a stale read or on more lost carries
// than the code means to drop.
template <class Op>
void expect_carries(Op op, uint64_t lost_by_design, const std::string& what) {
  device_path::carry = {};
  op();
  EXPECT_EQ(device_path::carry.lost, lost_by_design) << what << ": a carry was lost";
  EXPECT_EQ(device_path::carry.stale_reads, 0u) << what << ": a carry-in read a stale flag";
}

template <class F>
void check_pair(const mpz_class& a, const mpz_class& b, const mpz_class& r_inv) {
  using P = typename F::params;
  const mpz_class m = modulus<F>();
  const limbs_of<F> al(a), bl(b);
  limbs_of<F> out;
  const std::string what = hex(a) + ", " + hex(b);
  expect_carries([&] { device_path::mont_mul<P>(out.v, al.v, bl.v); }, 0, "mont_mul " + what);
  ASSERT_EQ(out.mpz(), mod(a * b * r_inv, m)) << "mont_mul " << what;
  if constexpr (device_path::sqr_fits<P>) {
    expect_carries([&] { device_path::mont_sqr<P>(out.v, al.v); }, 0, "mont_sqr " + hex(a));
    ASSERT_EQ(out.mpz(), mod(a * a * r_inv, m)) << "mont_sqr " << hex(a);
  }
  expect_carries([&] { device_path::mod_add<P>(out.v, al.v, bl.v); }, 0, "mod_add " + what);
  ASSERT_EQ(out.mpz(), mod(a + b, m)) << "mod_add " << what;
  // mod_sub adds p back after a borrow and lets that sum wrap past the top limb: one carry exactly
  // when a < b.
  expect_carries([&] { device_path::mod_sub<P>(out.v, al.v, bl.v); }, a < b ? 1 : 0, "mod_sub " + what);
  ASSERT_EQ(out.mpz(), mod(a - b, m)) << "mod_sub " << what;
}

// The sum over k of +-a[k]*b[k] / R (product k subtracted where bit k of Negate is set).
template <class F, int K, unsigned Negate>
void check_signed_dot(const std::array<mpz_class, K>& a, const std::array<mpz_class, K>& b,
                      const mpz_class& r_inv) {
  using P = typename F::params;
  std::array<limbs_of<F>, K> al, bl;
  const uint64_t* ap[K];
  const uint64_t* bp[K];
  mpz_class want = 0;
  std::string what = "mont_signed_dot<" + std::to_string(K) + ", " + std::to_string(Negate) + ">";
  for (int k = 0; k < K; ++k) {
    al[k] = limbs_of<F>(a[k]);
    bl[k] = limbs_of<F>(b[k]);
    ap[k] = al[k].v;
    bp[k] = bl[k].v;
    const mpz_class product = a[k] * b[k];
    want += ((Negate >> k) & 1) ? mpz_class(-product) : product;
    what += " " + hex(a[k]) + "*" + hex(b[k]);
  }
  limbs_of<F> out;
  expect_carries([&] { device_path::mont_signed_dot<P, K, Negate>(out.v, ap, bp); }, 0, what);
  ASSERT_EQ(out.mpz(), mod(want * r_inv, modulus<F>())) << what;
}

template <class F>
class DevicePath : public ::testing::Test {};
using Fields = ::testing::Types<fp, fr, bn254::fp, bn254::fr>;
TYPED_TEST_SUITE(DevicePath, Fields);

TYPED_TEST(DevicePath, MulAddSubMatchGmp) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  const mpz_class r_inv = radix_inverse<F>();
  const auto pool = value_pool<F>(rng);
  const auto edges = edge_values(modulus<F>());
  for (const auto& a : edges)
    for (const auto& b : edges) check_pair<F>(a, b, r_inv);
  for (int i = 0; i < kRandomPairs; ++i) check_pair<F>(pool[rng() % pool.size()], pool[rng() % pool.size()], r_inv);
}

// Sums of products in one pass (Fp only: K products need (K + 1) p < 2^(64 n64)): the XYZZ
// formulas' a*b - c*d (K = 2) and Fp2's coefficients (fp2.hpp: K = 2 for a product, 4 for a*b - c*d).
template <int K, unsigned Negate>
void check_signed_dots(std::mt19937_64& rng) {
  const mpz_class r_inv = radix_inverse<fp>();
  const mpz_class top = modulus<fp>() - 1;
  const auto pool = value_pool<fp>(rng);
  std::array<mpz_class, K> a, b;
  for (int i = 0; i < kRandomPairs / K; ++i) {
    for (int k = 0; k < K; ++k) {
      a[k] = pool[rng() % pool.size()];
      b[k] = pool[rng() % pool.size()];
    }
    check_signed_dot<fp, K, Negate>(a, b, r_inv);
  }
  // The largest sum a pass can see: every factor p - 1, and every subtrahend's factor entering as p.
  for (int k = 0; k < K; ++k) {
    a[k] = top;
    b[k] = ((Negate >> k) & 1) ? mpz_class(0) : top;
  }
  check_signed_dot<fp, K, Negate>(a, b, r_inv);
  a.fill(0);
  b.fill(0);
  check_signed_dot<fp, K, Negate>(a, b, r_inv);
}

TEST(DevicePathFp, SignedDotsMatchGmp) {
  static_assert(device_path::dot_fits<fp_params, 8> && !device_path::dot_fits<fp_params, 9>);
  static_assert(!device_path::dot_fits<fr_params, 2>);
  static_assert(device_path::sqr_fits<fp_params> && !device_path::sqr_fits<fr_params>);
  PP_SEEDED_RNG(rng);
  check_signed_dots<2, 0b00>(rng);
  check_signed_dots<2, 0b10>(rng);
  check_signed_dots<4, 0b0110>(rng);
  check_signed_dots<4, 0b1100>(rng);
  check_signed_dots<8, 0b10110001>(rng);
}

// The model itself: a lost carry and a stale read are seen, so the checks above can fail.
TEST(PtxCarryModel, SeesLostCarriesAndStaleReads) {
  using namespace device_path;
  carry = {};
  (void)add_cc(0xffffffffu, 1);
  (void)add_cc(0, 0);  // overwrites the unread carry
  EXPECT_EQ(carry.lost, 1u);
  (void)addc(0xffffffffu, 1);  // reads the flag the last add_cc left (0), then overflows
  EXPECT_EQ(carry.lost, 2u);
  EXPECT_EQ(carry.stale_reads, 0u);
  (void)addc(0, 0);  // nothing left a flag for this read
  EXPECT_EQ(carry.stale_reads, 1u);
  carry = {};
  EXPECT_EQ(sub_cc(0, 1), 0xffffffffu);
  EXPECT_EQ(subc(0, 0), 0xffffffffu);  // the borrow as a mask
  EXPECT_EQ(madc_hi_cc(0xffffffffu, 0xffffffffu, 0), 0xffffffffu);  // subc left the borrow (1)
  EXPECT_EQ(carry.stale_reads, 1u);
  EXPECT_EQ(carry.lost, 0u);
}

}  // namespace
}  // namespace pp::ff

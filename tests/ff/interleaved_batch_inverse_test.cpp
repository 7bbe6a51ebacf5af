// ff::interleaved_batch_inverse against GMP's mpz_invert, for fp and fr: every length from 0 to 9
// (both chains, odd and even n), larger ones, zeros inside and at the ends, all-zero vectors, edge
// values; fresh random values each run. For BLS12-381's and BN254's fp2 (the G2 batch sums, inverted
// through the norms), x * inverse(x) = 1 and agreement with ff::batch_inverse.
#include "ff/interleaved_batch_inverse.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "ff/bn254_tower.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

template <class F>
class InterleavedBatchInverse : public ::testing::Test {};

using fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(InterleavedBatchInverse, fields);

// Inverts a copy of a in place and checks each entry against GMP (0 for 0).
template <class F>
void check(const std::vector<mpz_class>& a) {
  const mpz_class m = modulus<F>();
  const auto n = static_cast<int64_t>(a.size());
  std::vector<F> v(a.size()), scratch(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) v[i] = from_mpz<F>(a[i]);
  interleaved_batch_inverse(v.data(), scratch.data(), n);
  for (std::size_t i = 0; i < a.size(); ++i) {
    mpz_class expect = 0;
    if (a[i] != 0) mpz_invert(expect.get_mpz_t(), a[i].get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(to_mpz(v[i]), expect) << "n=" << n << " i=" << i << " a=" << hex(a[i]);
  }
}

TYPED_TEST(InterleavedBatchInverse, MatchesGmp) {
  using F = TypeParam;
  const mpz_class m = modulus<F>();
  PP_SEEDED_RNG(rng);
  interleaved_batch_inverse<F>(nullptr, nullptr, 0);  // n = 0 touches nothing
  for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 256, 1023, 1024}) {
    for (int round = 0; round < 4; ++round) {
      std::vector<mpz_class> a(static_cast<std::size_t>(n));
      for (auto& x : a) x = rng() % 6 == 0 ? mpz_class(0) : random_field_value(rng, m);  // zeros inside
      if (round == 1) a.front() = 0;                                                      // at the ends
      if (round == 2) a.back() = 0;
      if (round == 3 && n > 1) a[a.size() - 2] = 0;  // the last element of the other chain
      check<F>(a);
    }
  }
}

TYPED_TEST(InterleavedBatchInverse, EdgeValuesAndZeros) {
  using F = TypeParam;
  const mpz_class m = modulus<F>();
  check<F>(edge_values(m));  // 0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2, R mod m
  for (int64_t n : {1, 2, 3, 8}) check<F>(std::vector<mpz_class>(static_cast<std::size_t>(n), 0));
  // A zero in one chain only: the other chain's product alone carries the inversion.
  check<F>({0, m - 1});
  check<F>({m - 1, 0, 0});
}

template <class F2>
class InterleavedBatchInverseFp2 : public ::testing::Test {};

using fp2_fields = ::testing::Types<fp2, bn254::fp2>;
TYPED_TEST_SUITE(InterleavedBatchInverseFp2, fp2_fields);

TYPED_TEST(InterleavedBatchInverseFp2, InvertsAndMatchesBatchInverse) {
  using F2 = TypeParam;
  using F = typename F2::base;
  const mpz_class p = modulus<F>();
  PP_SEEDED_RNG(rng);
  for (int64_t n : {1, 2, 3, 4, 5, 17, 1024, 1025}) {
    std::vector<F2> x(static_cast<std::size_t>(n));
    for (auto& e : x) {
      const uint64_t kind = rng() % 6;  // zeros, purely real and purely imaginary values among random ones
      const F c0 = kind == 1 ? F::zero() : from_mpz<F>(random_field_value(rng, p));
      const F c1 = kind == 2 ? F::zero() : from_mpz<F>(random_field_value(rng, p));
      e = kind == 0 ? F2::zero() : F2{c0, c1};
    }
    std::vector<F2> got = x, want = x, scratch(x.size());
    interleaved_batch_inverse(got.data(), scratch.data(), n);
    batch_inverse(want.data(), scratch.data(), n);
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_TRUE(got[i] == want[i]) << "n=" << n << " i=" << i;
      ASSERT_TRUE(x[i].is_zero() ? got[i].is_zero() : (x[i] * got[i]).is_one()) << "n=" << n << " i=" << i;
    }
  }
}

}  // namespace
}  // namespace pp::ff

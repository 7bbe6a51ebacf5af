// The host modular addition and subtraction (ff/mod_add_host.hpp) against GMP, and the x86-64 asm
// against the portable limb code: bit-identical on edge values (sums on either side of m, differences
// on either side of 0) and fresh random ones, with the output aliasing either input.
#include "ff/mod_add_host.hpp"

#include <gtest/gtest.h>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

using limb_op = void (*)(uint64_t*, const uint64_t*, const uint64_t*);

template <class F>
struct ModAddHost : ::testing::Test {};
using fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(ModAddHost, fields);

// Values whose sums and differences land on, just below and just above m and 0.
template <class F>
std::vector<mpz_class> operands(std::mt19937_64& rng) {
  const mpz_class m = modulus<F>();
  std::vector<mpz_class> v = edge_values(m);
  const mpz_class half = m / 2;
  for (const mpz_class& x : {mpz_class(half - 1), half, mpz_class(half + 1), mpz_class(half + 2), mpz_class(m - 3)})
    v.push_back(x);
  for (int k = 0; k < F::bits; k += 7) v.push_back((mpz_class(1) << k) % m);
  for (int i = 0; i < 200; ++i) v.push_back(random_field_value(rng, m));
  return v;
}

// op(a, b) against GMP's (a + sign b) mod m, written to a separate output and over each input.
template <class F>
void check(const mpz_class& a, const mpz_class& b, int sign, limb_op op) {
  const mpz_class m = modulus<F>();
  const mpz_class want = mod(sign > 0 ? mpz_class(a + b) : mpz_class(a - b), m);
  uint64_t al[F::n64], bl[F::n64], out[F::n64];
  mpz_to_limbs(a, al, F::n64);
  mpz_to_limbs(b, bl, F::n64);
  op(out, al, bl);
  ASSERT_EQ(limbs_to_mpz(out, F::n64), want) << hex(a) << (sign > 0 ? " + " : " - ") << hex(b);
  op(al, al, bl);
  ASSERT_EQ(limbs_to_mpz(al, F::n64), want) << "output over a";
  mpz_to_limbs(a, al, F::n64);
  op(bl, al, bl);
  ASSERT_EQ(limbs_to_mpz(bl, F::n64), want) << "output over b";
  mpz_to_limbs(a, al, F::n64);
  op(al, al, al);
  const mpz_class self = mod(sign > 0 ? mpz_class(2 * a) : mpz_class(0), m);
  ASSERT_EQ(limbs_to_mpz(al, F::n64), self) << "a op a";
}

template <class F>
void check_all(limb_op add, limb_op sub) {
  PP_SEEDED_RNG(rng);
  const std::vector<mpz_class> v = operands<F>(rng);
  for (const mpz_class& a : v)
    for (const mpz_class& b : v) {
      ASSERT_NO_FATAL_FAILURE(check<F>(a, b, +1, add));
      ASSERT_NO_FATAL_FAILURE(check<F>(a, b, -1, sub));
    }
}

TYPED_TEST(ModAddHost, PortableMatchesGmp) {
  using P = typename TypeParam::params;
  check_all<TypeParam>(host_path::mod_add_portable<P>, host_path::mod_sub_portable<P>);
}

// The dispatch the fields use: the asm on x86-64, else the portable code.
TYPED_TEST(ModAddHost, DispatchMatchesGmp) {
  using P = typename TypeParam::params;
  check_all<TypeParam>(host_path::mod_add<P>, host_path::mod_sub<P>);
}

// Long chains through the field operators and through the portable code stay bit-identical.
TYPED_TEST(ModAddHost, FieldOperatorsMatchPortableChains) {
  using F = TypeParam;
  using P = typename F::params;
  PP_SEEDED_RNG(rng);
  const mpz_class m = modulus<F>();
  F x, y;
  uint64_t px[F::n64];
  mpz_to_limbs(random_below(rng, m), x.l, F::n64);
  for (int k = 0; k < F::n64; ++k) px[k] = x.l[k];
  for (int i = 0; i < 100000; ++i) {
    mpz_to_limbs(random_field_value(rng, m), y.l, F::n64);
    const bool add = (rng() & 1) != 0;
    x = add ? x + y : x - y;
    (add ? host_path::mod_add_portable<P> : host_path::mod_sub_portable<P>)(px, px, y.l);
    for (int k = 0; k < F::n64; ++k) ASSERT_EQ(x.l[k], px[k]) << "step " << i << " limb " << k;
  }
}

}  // namespace
}  // namespace pp::ff

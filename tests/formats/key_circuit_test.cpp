// key_circuit: zkey section 4 written from a circuit reads back as the same A and B (input rows
// stripped), a zkey without input rows is refused, and bellperson densities follow the circuit.
#include "formats/key_circuit.hpp"

#include <gtest/gtest.h>

#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ::testing::Not;

r1cs::synthetic_circuit small_circuit() {
  r1cs::synthetic_params p;
  p.num_constraints = 40;
  p.num_public = 3;
  p.num_aux = 50;
  return r1cs::make_synthetic(p).value();
}

TEST(key_circuit, zkey_coefficients_round_trip) {
  const auto sc = small_circuit();
  snarkjs_zkey z;
  z.pk = groth16::setup_insecure(sc.cs, groth16::h_basis::odd_coset_lagrange,
                                 groth16::toxic_waste_from_seed_insecure(7))
             .value();
  z.coefficients = zkey_coefficients(sc.cs);
  EXPECT_EQ(z.coefficients.size(), sc.cs.a().nnz() + sc.cs.b().nnz() + 4);
  const auto cs = circuit_from_zkey(z);
  ASSERT_THAT(cs, IsOk());
  EXPECT_EQ(cs->num_constraints(), sc.cs.num_constraints());
  EXPECT_EQ(cs->num_public(), 3u);
  EXPECT_EQ(cs->num_aux(), 50u);
  EXPECT_TRUE(cs->a() == sc.cs.a());
  EXPECT_TRUE(cs->b() == sc.cs.b());
  EXPECT_EQ(cs->c().nnz(), 0u);

  snarkjs_zkey bad = z;
  bad.coefficients.pop_back();  // the last input row
  EXPECT_THAT(circuit_from_zkey(bad), Not(IsOk()));
  bad.coefficients.clear();
  EXPECT_THAT(circuit_from_zkey(bad), Not(IsOk()));
}

TEST(key_circuit, bellperson_density_from_circuit) {
  const auto sc = small_circuit();
  auto pk = groth16::setup_insecure(sc.cs, groth16::h_basis::monomial, groth16::toxic_waste_from_seed_insecure(9)).value();
  const auto want_a = *pk.a_density, want_b = *pk.b_density;
  pk.a_density = groth16::density_bitmap::all_clear(pk.n_vars);
  pk.b_density = groth16::density_bitmap::all_clear(pk.n_vars);
  ASSERT_THAT(fill_bellperson_density(pk, sc.cs), IsOk());
  EXPECT_EQ(pk.a_density->words, want_a.words);
  EXPECT_EQ(pk.b_density->words, want_b.words);
  EXPECT_EQ(pk.a_density->size, want_a.size);
  EXPECT_EQ(pk.b_density->size, want_b.size);
  pk.a.pop_back();
  EXPECT_THAT(fill_bellperson_density(pk, sc.cs), Not(IsOk()));
}

}  // namespace
}  // namespace pp::formats

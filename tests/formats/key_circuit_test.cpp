// key_circuit: zkey section 4 written from a circuit reads back as the same A and B (input rows
// stripped), a zkey without input rows is refused, and bellperson densities follow the circuit. On
// both families: a key and proof that went through every file format prove and verify.
#include "formats/key_circuit.hpp"

#include <gtest/gtest.h>

#include "formats/both_curves.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/satisfaction.hpp"
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

TEST(KeyCircuit, ZkeyCoefficientsRoundTrip) {
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

TEST(KeyCircuit, BellpersonDensityFromCircuit) {
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

// ---- both curves -------------------------------------------------------------------------------

// y = v_(n-1) with v_0 = x1 x2, v_i = v_(i-1) (v_(i-1) + x1): public y, x1, x2; a satisfying witness.
template <class Fr>
std::pair<r1cs::basic_constraint_system<Fr>, std::vector<Fr>> chain(uint64_t n) {
  r1cs::basic_constraint_system_builder<Fr> b(3, n);
  std::vector<Fr> w(1 + 3 + n);
  w[0] = Fr::one();
  w[2] = Fr::from_uint(5);
  w[3] = Fr::from_uint(7);
  using term = r1cs::basic_term<Fr>;
  {
    const term ta[] = {{2, Fr::one()}}, tb[] = {{3, Fr::one()}}, tc[] = {{b.aux_var(0), Fr::one()}};
    EXPECT_TRUE(b.add_constraint(ta, tb, tc).ok());
    w[b.aux_var(0)] = w[2] * w[3];
  }
  for (uint64_t i = 1; i < n; ++i) {
    const uint32_t v = b.aux_var(i - 1);
    const term ta[] = {{v, Fr::one()}}, tb[] = {{v, Fr::one()}, {2, Fr::one()}}, tc[] = {{b.aux_var(i), Fr::one()}};
    EXPECT_TRUE(b.add_constraint(ta, tb, tc).ok());
    w[b.aux_var(i)] = w[v] * (w[v] + w[2]);
  }
  const term ta[] = {{b.aux_var(n - 1), Fr::one()}}, tb[] = {{0, Fr::one()}}, tc[] = {{1, Fr::one()}};
  EXPECT_TRUE(b.add_constraint(ta, tb, tc).ok());
  w[1] = w[b.aux_var(n - 1)];
  return {std::move(b).build().value(), std::move(w)};
}

template <class Family>
class KeyCircuitCurves : public ::testing::Test {};
TYPED_TEST_SUITE(KeyCircuitCurves, testing::families, testing::family_name_generator);

TYPED_TEST(KeyCircuitCurves, KeyAndProofThroughTheFilesVerify) {
  using Fr = typename TypeParam::fr;
  const auto [cs, w] = chain<Fr>(20);
  ASSERT_THAT(r1cs::check_satisfied(cs, w), IsOk());
  // The circuit and witness through .r1cs and .wtns; the key through a .zkey and its circuit from it.
  const auto r1 = read_circom_r1cs<Fr>(write_circom_r1cs(make_circom_r1cs(cs)).value());
  ASSERT_THAT(r1, IsOk());
  EXPECT_TRUE(r1->cs == cs);
  const auto wt = read_circom_wtns<Fr>(write_circom_wtns(w).value());
  ASSERT_THAT(wt, IsOk());
  basic_snarkjs_zkey<TypeParam> z;
  z.pk = groth16::setup_insecure<TypeParam>(cs, groth16::h_basis::odd_coset_lagrange,
                                            groth16::toxic_waste_from_seed_insecure<Fr>(11))
             .value();
  z.coefficients = zkey_coefficients(cs);
  const auto zk = read_snarkjs_zkey<TypeParam>(write_snarkjs_zkey(z).value(), {zkey_point_check::subgroup});
  ASSERT_THAT(zk, IsOk());
  const auto zcs = circuit_from_zkey(*zk);
  ASSERT_THAT(zcs, IsOk());
  EXPECT_TRUE(zcs->a() == cs.a() && zcs->b() == cs.b());

  groth16::basic_cpu_backend<TypeParam> cpu;
  groth16::basic_prove_request<TypeParam> req;
  req.pk = &zk->pk;
  req.cs = &*zcs;
  req.witness = *wt;
  const auto out = groth16::prove(cpu, req);
  ASSERT_THAT(out, IsOk());

  const auto vk = read_snarkjs_vk_json<TypeParam>(write_snarkjs_vk_json(zk->pk.vk));
  ASSERT_THAT(vk, IsOk());
  const auto pi = read_snarkjs_proof_json<TypeParam>(write_snarkjs_proof_json(out->pi));
  ASSERT_THAT(pi, IsOk());
  const std::span<const Fr> pub_in = std::span<const Fr>(*wt).subspan(1, 3);
  const auto pub = read_snarkjs_public_json<Fr>(write_snarkjs_public_json(pub_in));
  ASSERT_THAT(pub, IsOk());
  EXPECT_THAT(groth16::verify(*vk, *pub, *pi), IsOk());
  auto tampered = *pub;
  tampered[0] += Fr::one();
  EXPECT_THAT(groth16::verify(*vk, tampered, *pi), Not(IsOk()));
}

}  // namespace
}  // namespace pp::formats

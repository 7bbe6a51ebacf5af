// key_vram (src/doctor/key_vram.hpp): doctor's plan of a key is the backend's (cuda/plan/budget_plan.hpp)
// on the key's files: a small PoRep-shaped key written as a snarkjs zkey, and bellperson
// parameters of a circom circuit with its r1cs, planned unlimited (resident), at its least budget (streamed, the least
// named) and one byte below (refused); a BN254 zkey planned with BN254's point sizes; unreadable files are unknown,
// saying why.
#include "doctor/key_vram.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/synthetic.hpp"
#include "support/files.hpp"
#include "support/test_seed.hpp"

namespace pp::doctor {
namespace {

using ::testing::HasSubstr;

void write(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The least budget the backend's planning gives (key, circuit) with two lanes.
template <class Family>
uint64_t backend_least(const groth16::basic_proving_key<Family>& pk, const r1cs::basic_constraint_system<typename Family::fr>& cs) {
  cuda::cuda_backend_config cfg;
  cfg.lanes = 2;
  const auto compact = cuda::make_compact_r1cs(cs);
  EXPECT_TRUE(compact.ok());
  const auto shape = cuda::shape_key(pk, cs, *compact, cfg.staging_bytes, cuda::matrix_rows_for(cfg), 1);
  EXPECT_TRUE(shape.ok());
  const auto opts = cuda::options_for(*shape, cfg);
  EXPECT_TRUE(opts.ok());
  return cuda::least_budget_bytes(*shape, *opts, cfg, 0);
}

class KeyVram : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const uint64_t seed = pp::test::test_seed();
    dir_ = pp::test::binary_temp_dir("doctor_key_vram");
    // A PoRep-shaped circuit as a snarkjs zkey (its circuit the one the zkey implies).
    auto c = r1cs::make_synthetic(r1cs::synthetic_params::porep(30000, seed % 1000 + 3));
    ASSERT_TRUE(c.ok());
    auto zpk = groth16::setup_insecure(c->cs, groth16::h_basis::odd_coset_lagrange,
                                       groth16::toxic_waste_from_seed_insecure(seed));
    ASSERT_TRUE(zpk.ok());
    formats::snarkjs_zkey z;
    z.coefficients = formats::zkey_coefficients(c->cs);
    z.pk = std::move(*zpk);
    auto zbytes = formats::write_snarkjs_zkey(z);
    ASSERT_TRUE(zbytes.ok());
    write(dir_ / "k.zkey", *zbytes);
    auto implied = formats::circuit_from_zkey(z);
    ASSERT_TRUE(implied.ok());
    least_zkey_ = backend_least(z.pk, *implied);
    // A circom circuit's bellperson parameters with its r1cs (bellperson cannot hold a point at
    // infinity, which the synthetic circuit's unused columns would give).
    r1cs_ = pp::test::source_dir() / "tests/fixtures/circom/mul.r1cs";
    auto r = formats::read_circom_r1cs_file(r1cs_);
    ASSERT_TRUE(r.ok());
    auto bpk = groth16::setup_insecure(r->cs, groth16::h_basis::monomial, groth16::toxic_waste_from_seed_insecure(seed));
    ASSERT_TRUE(bpk.ok());
    auto pbytes = formats::write_bellperson_params(*bpk);
    ASSERT_TRUE(pbytes.ok()) << pbytes.error().to_string();
    write(dir_ / "k.params", *pbytes);
    ASSERT_TRUE(formats::fill_bellperson_density(*bpk, r->cs).ok());
    least_params_ = backend_least(*bpk, r->cs);
    // One random circuit's shape over each curve, as snarkjs zkeys.
    least_bn254_ = write_random_zkey<ec::bn254::family>(seed, "bn254.zkey");
    least_bls_same_shape_ = write_random_zkey<ec::bls12_381::family>(seed, "bls_same_shape.zkey");
  }

  // A zkey of a random circuit of 3000 constraints over Family's scalar field in dir_/name; the
  // backend's least budget for it.
  template <class Family>
  static uint64_t write_random_zkey(uint64_t seed, const std::string& name) {
    uint64_t state = seed;
    const auto tc = groth16::testing::random_circuit<typename Family::fr>(state, 3000, 2);
    auto pk = groth16::setup_insecure<Family>(tc.cs, groth16::h_basis::odd_coset_lagrange,
                                              groth16::toxic_waste_from_seed_insecure<typename Family::fr>(state));
    EXPECT_TRUE(pk.ok());
    formats::basic_snarkjs_zkey<Family> z;
    z.coefficients = formats::zkey_coefficients(tc.cs);
    z.pk = std::move(*pk);
    EXPECT_TRUE(formats::write_snarkjs_zkey_file(z, dir_ / name).ok());
    auto implied = formats::circuit_from_zkey(z);
    EXPECT_TRUE(implied.ok());
    return backend_least(z.pk, *implied);
  }
  static inline std::filesystem::path dir_, r1cs_;
  static inline uint64_t least_zkey_ = 0, least_params_ = 0, least_bn254_ = 0, least_bls_same_shape_ = 0;
};

TEST_F(KeyVram, AZkeyIsResidentUnlimitedStreamedAtItsLeastRefusedBelow) {
  ASSERT_GT(least_zkey_, 0u);
  const server::key_entry k{"small", (dir_ / "k.zkey").string(), "", "", false};
  const key_vram_plan big = plan_key_vram({k, 0, uint64_t{1} << 40, 2});
  EXPECT_EQ(big.placement, key_placement::resident) << big.summary;
  EXPECT_EQ(big.least_bytes, least_zkey_);
  const key_vram_plan edge = plan_key_vram({k, 0, least_zkey_, 2});
  EXPECT_EQ(edge.placement, key_placement::streamed) << edge.summary;
  EXPECT_THAT(edge.summary, HasSubstr("copied per partition"));
  const key_vram_plan below = plan_key_vram({k, 0, least_zkey_ - 1, 2});
  EXPECT_EQ(below.placement, key_placement::refused) << below.summary;
  EXPECT_EQ(below.least_bytes, least_zkey_);
  EXPECT_THAT(below.summary, HasSubstr(std::to_string(least_zkey_)));
}

TEST_F(KeyVram, BellpersonParametersArePlannedWithTheirCircuit) {
  ASSERT_GT(least_params_, 0u);
  const server::key_entry k{"small", "", (dir_ / "k.params").string(), r1cs_.string(), false};
  const key_vram_plan big = plan_key_vram({k, 0, uint64_t{1} << 40, 2});
  EXPECT_EQ(big.placement, key_placement::resident) << big.summary;
  EXPECT_EQ(big.least_bytes, least_params_);
  EXPECT_EQ(plan_key_vram({k, 0, least_params_ - 1, 2}).placement, key_placement::refused);
}

// A BN254 key is planned as the engine's GPUs prove it, with BN254's (smaller) points: its least
// budget is the backend's for that key, below a BLS12-381 key's of the same circuit shape.
TEST_F(KeyVram, ABn254ZkeyIsPlannedWithBn254PointSizes) {
  ASSERT_GT(least_bn254_, 0u);
  EXPECT_LT(least_bn254_, least_bls_same_shape_);
  const server::key_entry k{"bn", (dir_ / "bn254.zkey").string(), "", "", false};
  const key_vram_plan big = plan_key_vram({k, 0, uint64_t{1} << 40, 2});
  EXPECT_EQ(big.placement, key_placement::resident) << big.summary;
  EXPECT_EQ(big.least_bytes, least_bn254_);
  const key_vram_plan below = plan_key_vram({k, 0, least_bn254_ - 1, 2});
  EXPECT_EQ(below.placement, key_placement::refused) << below.summary;
  EXPECT_EQ(below.least_bytes, least_bn254_);
  const server::key_entry bls{"bls", (dir_ / "bls_same_shape.zkey").string(), "", "", false};
  EXPECT_EQ(plan_key_vram({bls, 0, uint64_t{1} << 40, 2}).least_bytes, least_bls_same_shape_);
}

TEST_F(KeyVram, UnreadableFilesAreUnknownSayingWhy) {
  const server::key_entry missing{"gone", (dir_ / "missing.zkey").string(), "", "", false};
  const key_vram_plan p = plan_key_vram({missing, 0, uint64_t{1} << 40, 2});
  EXPECT_EQ(p.placement, key_placement::unknown);
  EXPECT_EQ(p.least_bytes, 0u);
  EXPECT_THAT(p.summary, HasSubstr("missing.zkey"));
  // Parameters of another circuit: the key and the r1cs do not match.
  write(dir_ / "other.r1cs", {1, 2, 3});
  const server::key_entry bad{"bad", "", (dir_ / "k.params").string(), (dir_ / "other.r1cs").string(), false};
  EXPECT_EQ(plan_key_vram({bad, 0, uint64_t{1} << 40, 2}).placement, key_placement::unknown);
}

}  // namespace
}  // namespace pp::doctor

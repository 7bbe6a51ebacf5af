// .wtns reader/writer: round trips, every truncation, and each error path on corrupted bytes; the
// curve-generic cases (round trips, truncation, values >= r, a file for the other curve) on both.
// Layout of the files written here: header content at 24 (n8), prime at 28, nWitness at 60,
// section 2's table entry at 64 and its values from 76.
#include "formats/circom_wtns.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

#include "formats/binfile.hpp"
#include "formats/both_curves.hpp"
#include "r1cs/random_system.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ::testing::Not;

using ff::fr;
using r1cs::testing::test_seed;

template <class T>
void put(std::vector<uint8_t>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}

TEST(CircomWtns, RoundTrips) {
  uint64_t seed = test_seed();
  for (std::size_t n : {0, 1, 2, 100, 5000}) {
    const auto w = r1cs::testing::random_witness(seed, n);
    const auto bytes = write_circom_wtns(w).value();
    EXPECT_EQ(bytes.size(), 76 + 32 * n);
    auto back = read_circom_wtns(bytes);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, w);
    EXPECT_EQ(write_circom_wtns(*back).value(), bytes);
  }
  // Sections may come in any order.
  binfile_writer wr("wtns", 2, 2);
  wr.begin_section(2);
  wr.bytes(std::vector<uint8_t>(32, 0).data(), 32);
  wr.end_section();
  wr.begin_section(1);
  wr.u32(32);
  wr.bytes(ff::fr_params::modulus, 32);
  wr.u32(1);
  wr.end_section();
  EXPECT_EQ(read_circom_wtns(std::move(wr).finish()).value(), std::vector<fr>{fr::zero()});
}

TEST(CircomWtns, FileApi) {
  uint64_t seed = test_seed();
  const auto path = std::filesystem::temp_directory_path() / ("pp_wtns_test_" + std::to_string(seed) + ".wtns");
  const auto w = r1cs::testing::random_witness(seed, 33);
  ASSERT_THAT(write_circom_wtns_file(w, path), IsOk());
  EXPECT_EQ(read_circom_wtns_file(path).value(), w);
  std::filesystem::remove(path);
  EXPECT_EQ(read_circom_wtns_file(path).error().code(), status_code::not_found);
}

TEST(CircomWtns, EveryTruncationFails) {
  uint64_t seed = test_seed();
  const auto bytes = write_circom_wtns(r1cs::testing::random_witness(seed, 5)).value();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    ASSERT_THAT(read_circom_wtns(std::span(bytes).first(n)), Not(IsOk())) << "prefix of " << n << " bytes was accepted";
  }
}

TEST(CircomWtns, RandomCorruptionNeverCrashes) {
  uint64_t seed = test_seed();
  std::mt19937_64 g(seed);
  const auto good = write_circom_wtns(r1cs::testing::random_witness(seed, 4)).value();
  for (int i = 0; i < 20000; ++i) {
    auto b = good;
    for (int k = 0; k < 1 + static_cast<int>(g() % 3); ++k) b[g() % b.size()] ^= static_cast<uint8_t>(1 + g() % 255);
    auto r = read_circom_wtns(b);
    if (r.ok()) {
      EXPECT_EQ(read_circom_wtns(write_circom_wtns(*r).value()).value(), *r);
    }
  }
}

TEST(CircomWtns, ErrorPaths) {
  uint64_t seed = test_seed();
  const auto good = write_circom_wtns(r1cs::testing::random_witness(seed, 3)).value();
  auto err = [](const std::vector<uint8_t>& b, const circom_limits& l = {}) { return read_circom_wtns(b, l).error(); };

  auto b = good;
  std::memcpy(b.data(), "r1cs", 4);
  EXPECT_EQ(err(b).message(), "not a .wtns file: it does not start with 'wtns' (it is a .r1cs file)");
  b = good;
  put<uint32_t>(b, 4, 1);
  EXPECT_EQ(err(b).message(), "unsupported .wtns version 1, expected 2");
  b = good;
  put<uint32_t>(b, 64, 3);
  EXPECT_EQ(err(b).message(), "section 2 (witness values) is missing");
  b = good;
  put<uint32_t>(b, 12, 2);
  EXPECT_TRUE(err(b).message().find("appears twice") != std::string::npos) << err(b).message();
  b = good;
  put<uint32_t>(b, 60, 4);  // nWitness disagrees with section 2
  EXPECT_EQ(err(b).message(), "section 2 (witness values) has 96 bytes, expected nWitness 4 * 32 = 128");
  EXPECT_EQ(err(b).code(), status_code::data_loss);
  b = good;
  std::memcpy(b.data() + 76 + 64, ff::fr_params::modulus, 32);
  EXPECT_EQ(err(b).message(), "witness value 2 (offset 140) >= the BLS12-381 scalar modulus r");
  EXPECT_EQ(err(b).code(), status_code::invalid_argument);
  b = good;
  std::memset(b.data() + 76 + 32, 0xff, 32);
  EXPECT_EQ(err(b).message(), "witness value 1 (offset 108) >= the BLS12-381 scalar modulus r");
  b = good;
  const uint64_t bn254[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029};
  std::memcpy(b.data() + 28, bn254, 32);
  EXPECT_EQ(err(b).message().rfind("this .wtns is for BN254 (prime 2188824287183927522224640574525727508854836440041603434369820418657580849561", 0), 0u)
      << err(b).message();
  b = good;
  put<uint64_t>(b, 16, 41);  // header section claims one more byte
  EXPECT_EQ(err(b).code(), status_code::data_loss);
  circom_limits l;
  l.max_wires = 2;
  EXPECT_EQ(err(good, l).message(), "header: nWitness 3 exceeds the limit 2");
  EXPECT_EQ(err(good, l).code(), status_code::resource_exhausted);
}

// ---- both curves -------------------------------------------------------------------------------

template <class Family>
class CircomWtnsCurves : public ::testing::Test {};
TYPED_TEST_SUITE(CircomWtnsCurves, testing::families, testing::family_name_generator);

TYPED_TEST(CircomWtnsCurves, RoundTripsAndNamesItsCurve) {
  using Fr = typename TypeParam::fr;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (std::size_t n : {0, 1, 2, 100}) {
    const auto w = testing::random_witness<Fr>(rng, n);
    const auto bytes = write_circom_wtns(w).value();
    ASSERT_EQ(bytes.size(), 76 + 32 * n);
    EXPECT_EQ(0, std::memcmp(bytes.data() + 28, Fr::params::modulus, 32));  // the prime is r
    const auto back = read_circom_wtns<Fr>(bytes);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, w);
    EXPECT_EQ(write_circom_wtns(*back).value(), bytes);
    EXPECT_TRUE(testing::is_curve(read_circom_wtns_curve(bytes), testing::curve_of<TypeParam>));
  }
  const auto path = std::filesystem::temp_directory_path() / ("pp_wtns_curves_" + std::to_string(rng.seed) + ".wtns");
  const auto w = testing::random_witness<Fr>(rng, 7);
  ASSERT_THAT(write_circom_wtns_file(w, path), IsOk());
  EXPECT_EQ(read_circom_wtns_file<Fr>(path).value(), w);
  EXPECT_TRUE(testing::is_curve(read_circom_wtns_curve_file(path), testing::curve_of<TypeParam>));
  std::filesystem::remove(path);
  EXPECT_EQ(read_circom_wtns_curve_file(path).error().code(), status_code::not_found);
}

TYPED_TEST(CircomWtnsCurves, EveryTruncationFails) {
  using Fr = typename TypeParam::fr;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto bytes = write_circom_wtns(testing::random_witness<Fr>(rng, 3)).value();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    ASSERT_THAT(read_circom_wtns<Fr>(std::span(bytes).first(n)), Not(IsOk())) << "prefix of " << n << " bytes";
  }
  // The header alone says the curve once the section table and the prime are there.
  for (std::size_t n = 0; n < 64; ++n) {
    ASSERT_THAT(read_circom_wtns_curve(std::span(bytes).first(n)), Not(IsOk())) << "prefix of " << n << " bytes";
  }
}

TYPED_TEST(CircomWtnsCurves, ValuesFromRUpAreRefused) {
  using Fr = typename TypeParam::fr;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto good = write_circom_wtns(testing::random_witness<Fr>(rng, 3)).value();
  auto b = good;
  std::memcpy(b.data() + 76 + 32, Fr::params::modulus, 32);  // r itself
  const auto r = read_circom_wtns<Fr>(b);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  EXPECT_EQ(r.error().message(),
            std::string("witness value 1 (offset 108) >= the ") + TypeParam::name + " scalar modulus r");
  uint64_t r_minus_1[4];
  std::memcpy(r_minus_1, Fr::params::modulus, 32);
  r_minus_1[0] -= 1;
  std::memcpy(b.data() + 76 + 32, r_minus_1, 32);
  EXPECT_TRUE(read_circom_wtns<Fr>(b).value()[1] == -Fr::one());
}

TYPED_TEST(CircomWtnsCurves, OtherCurvesFileIsRefusedNamingBoth) {
  using Fr = typename TypeParam::fr;
  using Other = testing::other_family<TypeParam>;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto bytes = write_circom_wtns(testing::random_witness<typename Other::fr>(rng, 3)).value();
  const auto r = read_circom_wtns<Fr>(bytes);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  const std::string m = r.error().message();
  EXPECT_EQ(m.rfind(std::string("this .wtns is for ") + Other::name + " (prime ", 0), 0u) << m;
  const std::string want = std::string(ec::snarkjs_curve_name(testing::curve_of<TypeParam>));
  EXPECT_NE(m.find(std::string("), expected ") + TypeParam::name +
                   "; compute the witness with a circuit compiled with circom -p " + want),
            std::string::npos)
      << m;
  EXPECT_TRUE(testing::is_curve(read_circom_wtns_curve(bytes), testing::curve_of<Other>));
}

TEST(CircomWtns, CurveOfAnUnknownPrimeIsRefused) {
  uint64_t seed = test_seed();
  auto b = write_circom_wtns(r1cs::testing::random_witness(seed, 2)).value();
  b[40] ^= 1;
  const auto r = read_circom_wtns_curve(b);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  EXPECT_NE(r.error().message().find("has an unknown field"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("proofpipe proves over BLS12-381 and BN254; compute the witness with a circuit "
                                     "compiled with circom -p bls12381 or -p bn128"),
            std::string::npos)
      << r.error().message();
}

}  // namespace
}  // namespace pp::formats

// .r1cs reader/writer: real circom output, random round trips, and every error path on corrupted
// or truncated bytes (each prefix of a small file must fail cleanly); the curve-generic cases on both
// curves.
#include "formats/circom_r1cs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "formats/binfile.hpp"
#include "formats/both_curves.hpp"
#include "formats/circom_wtns.hpp"
#include "r1cs/satisfaction.hpp"
#include "r1cs/random_system.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ::testing::Not;

using ff::fr;
using r1cs::testing::test_seed;

std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

std::filesystem::path fixture(const char* name) {
  return pp::test::source_dir() / "tests/fixtures/circom" / name;
}

template <class T>
void put(std::vector<uint8_t>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}

bool contains(const status& s, std::string_view what) { return s.message().find(what) != std::string::npos; }

// A small file with sections in order 1, 2, 3: header content at 24, nWires at 60, nConstraints at 84,
// section 2's table entry at 88 and its content at 100 (first term count), first wire id at 104.
std::vector<uint8_t> small_file(uint64_t seed) {
  auto sys = r1cs::testing::random_lc_system(seed, 4, 2, 3, 3);
  sys.a[0] = {{1, fr::from_uint(5)}, {2, fr::one()}};
  circom_r1cs r = make_circom_r1cs(sys.build());
  r.section_order = {1, 2, 3};
  return write_circom_r1cs(r).value();
}

TEST(CircomR1cs, ReadsCircomOutputAndWritesItBack) {
  const auto bytes = slurp(fixture("mul.r1cs"));
  ASSERT_EQ(bytes.size(), 428u);
  auto r = read_circom_r1cs(bytes);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->n_pub_out, 1u);
  EXPECT_EQ(r->n_pub_in, 1u);
  EXPECT_EQ(r->n_prv_in, 1u);
  EXPECT_EQ(r->cs.num_public(), 2u);
  EXPECT_EQ(r->cs.num_aux(), 2u);
  EXPECT_EQ(r->cs.num_constraints(), 2u);
  EXPECT_EQ(r->section_order, (std::vector<uint32_t>{2, 1, 3}));
  EXPECT_EQ(write_circom_r1cs(*r).value(), bytes);

  auto w = read_circom_wtns_file(fixture("mul.wtns"));
  ASSERT_THAT(w, IsOk());
  EXPECT_EQ(*w, (std::vector<fr>{fr::one(), fr::from_uint(102), fr::from_uint(3), fr::from_uint(11), fr::from_uint(33)}));
  EXPECT_THAT(r1cs::check_satisfied(r->cs, *w), IsOk());
  EXPECT_EQ(write_circom_wtns(*w).value(), slurp(fixture("mul.wtns")));
  (*w)[3] = fr::from_uint(12);
  EXPECT_EQ(r1cs::check_satisfied(r->cs, *w).message().rfind("constraint 0 is not satisfied", 0), 0u);
}

TEST(CircomR1cs, RandomRoundTrips) {
  uint64_t seed = test_seed();
  const std::vector<std::vector<uint32_t>> orders = {{1, 2, 3}, {2, 1, 3}, {3, 2, 1}, {2, 1}, {1, 2}};
  for (uint64_t rows : {0, 1, 7, 500}) {
    for (const auto& order : orders) {
      circom_r1cs r = make_circom_r1cs(r1cs::testing::random_lc_system(seed, rows, 3, 9, 4).build());
      r.n_pub_out = 1;
      r.n_pub_in = 2;
      r.n_prv_in = 4;
      r.n_labels = 77;
      if (order.size() == 2) r.wire_labels.reset();
      r.section_order = order;
      auto bytes = write_circom_r1cs(r);
      ASSERT_THAT(bytes, IsOk());
      auto back = read_circom_r1cs(*bytes);
      ASSERT_THAT(back, IsOk());
      EXPECT_EQ(*back, r);
      EXPECT_EQ(write_circom_r1cs(*back).value(), *bytes);
    }
  }
}

TEST(CircomR1cs, FileApi) {
  uint64_t seed = test_seed();
  const auto dir = std::filesystem::temp_directory_path() / ("pp_r1cs_test_" + std::to_string(seed));
  std::filesystem::create_directories(dir);
  const circom_r1cs r = make_circom_r1cs(r1cs::testing::random_lc_system(seed, 20, 1, 5, 3).build());
  ASSERT_THAT(write_circom_r1cs_file(r, dir / "x.r1cs"), IsOk());
  auto back = read_circom_r1cs_file(dir / "x.r1cs");
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, r);
  auto missing = read_circom_r1cs_file(dir / "missing.r1cs");
  EXPECT_EQ(missing.error().code(), status_code::not_found);
  EXPECT_TRUE(contains(missing.error(), "missing.r1cs"));
  std::ofstream(dir / "empty.r1cs").close();
  auto empty = read_circom_r1cs_file(dir / "empty.r1cs");
  EXPECT_EQ(empty.error().code(), status_code::data_loss);
  EXPECT_EQ(empty.error().message().rfind("reading " + (dir / "empty.r1cs").string() + ": truncated at offset 0", 0), 0u)
      << empty.error().message();
  std::filesystem::remove_all(dir);
}

TEST(CircomR1cs, EveryTruncationFails) {
  uint64_t seed = test_seed();
  for (const auto& bytes : {small_file(seed), slurp(fixture("mul.r1cs"))}) {
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      auto r = read_circom_r1cs(std::span(bytes).first(n));
      ASSERT_THAT(r, Not(IsOk())) << "prefix of " << n << " bytes was accepted";
      ASSERT_FALSE(r.error().message().empty());
    }
  }
}

TEST(CircomR1cs, RandomCorruptionNeverCrashes) {
  uint64_t seed = test_seed();
  std::mt19937_64 g(seed);
  const auto good = small_file(seed);
  for (int i = 0; i < 20000; ++i) {
    auto b = good;
    for (int k = 0; k < 1 + static_cast<int>(g() % 4); ++k) b[g() % b.size()] ^= static_cast<uint8_t>(1 + g() % 255);
    auto r = read_circom_r1cs(b);
    if (r.ok()) {
      EXPECT_EQ(read_circom_r1cs(write_circom_r1cs(*r).value()).value(), *r);
    }
  }
}

TEST(CircomR1cs, ErrorPaths) {
  uint64_t seed = test_seed();
  const auto good = small_file(seed);
  ASSERT_THAT(read_circom_r1cs(good), IsOk());
  auto err = [](const std::vector<uint8_t>& b, const circom_limits& l = {}) { return read_circom_r1cs(b, l).error(); };

  auto b = good;
  std::memcpy(b.data(), "wtns", 4);
  status s = err(b);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "not a .r1cs file: it does not start with 'r1cs' (it is a .wtns file)");

  b = good;
  put<uint32_t>(b, 4, 2);
  EXPECT_EQ(err(b).message(), "unsupported .r1cs version 2, expected 1");

  b = good;
  put<uint32_t>(b, 12, 7);  // header section renamed: missing
  s = err(b);
  EXPECT_EQ(s.code(), status_code::data_loss);
  EXPECT_EQ(s.message(), "section 1 (header) is missing");

  b = good;
  put<uint32_t>(b, 88, 1);  // constraints renamed to a second header
  EXPECT_TRUE(contains(err(b), "section 1 (header) appears twice")) << err(b).message();

  b = good;
  put<uint32_t>(b, 88, 9);
  EXPECT_EQ(err(b).message(), "section 2 (constraints) is missing");

  b = good;
  put<uint32_t>(b, 88, 4);
  EXPECT_EQ(err(b).code(), status_code::unimplemented);

  b = good;
  put<uint64_t>(b, 16, 65);  // header section one byte longer, shifting the rest
  EXPECT_EQ(err(b).code(), status_code::data_loss);

  b = good;
  put<uint64_t>(b, 92, uint64_t{1} << 40);
  EXPECT_TRUE(contains(err(b), "section 2 at offset 88 claims 1099511627776 bytes")) << err(b).message();

  b = good;
  b.push_back(0);
  EXPECT_TRUE(contains(err(b), "1 trailing bytes")) << err(b).message();

  b = good;  // nConstraints larger than the section can hold
  put<uint32_t>(b, 84, 0xffffffffu);
  EXPECT_TRUE(contains(err(b), "header says 4294967295 constraints")) << err(b).message();

  b = good;  // one constraint fewer: the rest of section 2 is trailing bytes
  put<uint32_t>(b, 84, 3);
  EXPECT_TRUE(contains(err(b), "section 2 (constraints) has")) << err(b).message();

  b = good;
  put<uint32_t>(b, 100, 1000);  // term count beyond the section
  EXPECT_TRUE(contains(err(b), "truncated at offset 100: constraint 0 has 1000 A terms")) << err(b).message();

  b = good;
  put<uint32_t>(b, 104, 6);  // wire id == nWires
  s = err(b);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "constraint 0, A term 0 (offset 104): wire id 6 out of range, nWires is 6");

  b = good;
  std::memcpy(b.data() + 108, ff::fr_params::modulus, 32);  // coefficient == r
  EXPECT_EQ(err(b).message(), "constraint 0, A term 0 (offset 108): coefficient >= the BLS12-381 scalar modulus r");

  b = good;
  put<uint32_t>(b, 60, 2);  // nWires < 1 + public + private inputs
  EXPECT_EQ(err(b).message(), "header: nWires 2 is less than 1 + nPubOut 0 + nPubIn 2 + nPrvIn 0");

  b = good;  // BN254 prime
  const uint64_t bn254[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029};
  std::memcpy(b.data() + 28, bn254, 32);
  EXPECT_EQ(err(b).message(),
            "this .r1cs is for BN254 (prime 21888242871839275222246405745257275088548364400416034343698204186575808495617), "
            "expected BLS12-381; recompile the circuit with circom -p bls12381");

  b = good;
  put<uint32_t>(b, 24, 0);
  EXPECT_TRUE(contains(err(b), "field size n8 at offset 24 is 0")) << err(b).message();

  b = good;  // an unknown prime
  b[40] ^= 1;
  EXPECT_TRUE(contains(err(b), "has an unknown field")) << err(b).message();

  circom_limits l;
  l.max_wires = 5;
  EXPECT_EQ(err(good, l).code(), status_code::resource_exhausted);
  l = {};
  l.max_constraints = 3;
  EXPECT_EQ(err(good, l).message(), "header: nConstraints 4 exceeds the limit 3");
  l = {};
  l.max_terms = 1;
  EXPECT_EQ(err(good, l).code(), status_code::resource_exhausted);

  // Goldilocks: n8 = 8, so the header is laid out differently; build it by hand.
  binfile_writer w("r1cs", 1, 1);
  w.begin_section(1);
  w.u32(8);
  w.u64(0xffffffff00000001ull);
  w.end_section();
  EXPECT_EQ(read_circom_r1cs(std::move(w).finish()).error().message(),
            "this .r1cs is for Goldilocks (prime 18446744069414584321), proofpipe proves over BLS12-381 and BN254; "
            "recompile the circuit with circom -p bls12381");

  // The wire map must have one label per wire.
  circom_r1cs r = read_circom_r1cs(good).value();
  r.wire_labels->pop_back();
  EXPECT_EQ(write_circom_r1cs(r).error().code(), status_code::invalid_argument);
  r.wire_labels->push_back(1);
  r.section_order = {1, 2};
  EXPECT_EQ(write_circom_r1cs(r).error().code(), status_code::invalid_argument);
  b = good;  // section 3 shortened by 8 bytes (the file too)
  b.resize(b.size() - 8);
  const std::size_t map_entry = good.size() - 6 * 8 - 12;  // section 3's table entry
  put<uint64_t>(b, map_entry + 4, 5 * 8);
  EXPECT_TRUE(contains(err(b), "section 3 (wire map) has 40 bytes, expected nWires 6 * 8 = 48")) << err(b).message();
}

TEST(CircomR1cs, WitnessFromAnotherCircuitIsRejected) {
  uint64_t seed = test_seed();
  const auto r = read_circom_r1cs(small_file(seed)).value();
  const auto other = r1cs::testing::random_witness(seed, r.cs.num_variables() + 3);
  const auto w = read_circom_wtns(write_circom_wtns(other).value()).value();
  const status s = r1cs::check_satisfied(r.cs, w);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "witness has 9 values, the constraint system expects 6 (1 + 2 public + 3 aux)");
}

// ---- both curves -------------------------------------------------------------------------------

template <class Family>
class CircomR1csCurves : public ::testing::Test {};
TYPED_TEST_SUITE(CircomR1csCurves, testing::families, testing::family_name_generator);

TYPED_TEST(CircomR1csCurves, RoundTripsAndNamesItsCurve) {
  using Fr = typename TypeParam::fr;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (uint64_t rows : {0, 1, 7, 200}) {
    auto r = make_circom_r1cs(testing::random_system<Fr>(rng, rows, 2, 5, 4));
    r.n_pub_out = 1;
    r.n_pub_in = 1;
    const auto bytes = write_circom_r1cs(r).value();
    const auto back = read_circom_r1cs<Fr>(bytes);
    ASSERT_THAT(back, IsOk());
    EXPECT_TRUE(*back == r);
    EXPECT_EQ(write_circom_r1cs(*back).value(), bytes);
    EXPECT_TRUE(testing::is_curve(read_circom_r1cs_curve(bytes), testing::curve_of<TypeParam>));
  }
  const auto path = std::filesystem::temp_directory_path() / ("pp_r1cs_curves_" + std::to_string(rng.seed) + ".r1cs");
  const auto r = make_circom_r1cs(testing::random_system<Fr>(rng, 3, 1, 4, 3));
  ASSERT_THAT(write_circom_r1cs_file(r, path), IsOk());
  EXPECT_TRUE(read_circom_r1cs_file<Fr>(path).value() == r);
  EXPECT_TRUE(testing::is_curve(read_circom_r1cs_curve_file(path), testing::curve_of<TypeParam>));
  EXPECT_EQ(read_circom_r1cs_num_wires_file(path).value(), 6u);  // either curve
  std::filesystem::remove(path);
  EXPECT_EQ(read_circom_r1cs_curve_file(path).error().code(), status_code::not_found);
}

TYPED_TEST(CircomR1csCurves, EveryTruncationFails) {
  using Fr = typename TypeParam::fr;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto r = make_circom_r1cs(testing::random_system<Fr>(rng, 3, 1, 2, 2));
  r.section_order = {1, 2, 3};
  const auto bytes = write_circom_r1cs(r).value();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    ASSERT_THAT(read_circom_r1cs<Fr>(std::span(bytes).first(n)), Not(IsOk())) << "prefix of " << n << " bytes";
  }
  for (std::size_t n = 0; n < 60; ++n) {  // the header's prime ends at 60
    ASSERT_THAT(read_circom_r1cs_curve(std::span(bytes).first(n)), Not(IsOk())) << "prefix of " << n << " bytes";
  }
}

TYPED_TEST(CircomR1csCurves, CoefficientsFromRUpAreRefused) {
  using Fr = typename TypeParam::fr;
  // One constraint w1 * w1 = w1: section 2 at 100 holds the A term count, wire id, then its coefficient.
  r1cs::basic_constraint_system_builder<Fr> b(1, 0);
  const r1cs::basic_term<Fr> t[] = {{1, Fr::from_uint(3)}};
  ASSERT_THAT(b.add_constraint(t, t, t), IsOk());
  auto r = make_circom_r1cs(std::move(b).build().value());
  r.section_order = {1, 2, 3};
  auto bytes = write_circom_r1cs(r).value();
  std::memcpy(bytes.data() + 108, Fr::params::modulus, 32);
  const auto back = read_circom_r1cs<Fr>(bytes);
  ASSERT_THAT(back, StatusIs(status_code::invalid_argument));
  EXPECT_EQ(back.error().message(), std::string("constraint 0, A term 0 (offset 108): coefficient >= the ") +
                                        TypeParam::name + " scalar modulus r");
}

TYPED_TEST(CircomR1csCurves, OtherCurvesFileIsRefusedNamingBoth) {
  using Other = testing::other_family<TypeParam>;
  testing::test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto bytes = write_circom_r1cs(make_circom_r1cs(testing::random_system<typename Other::fr>(rng, 4, 1, 3, 3))).value();
  const auto r = read_circom_r1cs<typename TypeParam::fr>(bytes);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  const std::string m = r.error().message();
  EXPECT_EQ(m.rfind(std::string("this .r1cs is for ") + Other::name + " (prime ", 0), 0u) << m;
  EXPECT_NE(m.find(std::string("), expected ") + TypeParam::name + "; recompile the circuit with circom -p " +
                   std::string(ec::snarkjs_curve_name(testing::curve_of<TypeParam>))),
            std::string::npos)
      << m;
  EXPECT_TRUE(testing::is_curve(read_circom_r1cs_curve(bytes), testing::curve_of<Other>));
}

}  // namespace
}  // namespace pp::formats

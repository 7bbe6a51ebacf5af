// read_srs_file (src/c2/srs.hpp), the ABI's parameters-file loader: a file proofpipe wrote reads back;
// one whose verifying key holds a point on the curve but outside the prime-order subgroup (a G1 and
// a G2 point, lifted from an x without clearing the cofactor) is refused with a message naming the
// field; one with a point off the curve likewise. check_query_subgroups names the first query point
// (h, l, a, b_g1, b_g2) outside the subgroup. A file truncated while it loads is data_loss, not SIGBUS.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "c2/srs.hpp"
#include "ec/affine.hpp"
#include "ec/subgroup.hpp"
#include "formats/bellperson_params.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::c2 {
namespace {

class SrsFile : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = pp::test::test_seed();
    auto c = r1cs::make_synthetic(r1cs::synthetic_params::porep(200, seed_));
    ASSERT_THAT(c, IsOk());
    auto pk = groth16::setup_insecure(c->cs, groth16::h_basis::monomial, groth16::toxic_waste_from_seed_insecure(seed_));
    ASSERT_THAT(pk, IsOk());
    pk_ = std::move(pk).value();
    // Points at infinity (variables in no constraint) cannot be written to a bellperson file; these
    // tests only read the file back, so any curve point stands in for them.
    for (auto* v : {&pk_.h, &pk_.l, &pk_.a, &pk_.b_g1}) {
      for (ec::g1_affine& p : *v) {
        if (ec::is_infinity(p)) p = ec::generator<ec::g1_curve>();
      }
    }
    for (ec::g2_affine& q : pk_.b_g2) {
      if (ec::is_infinity(q)) q = ec::generator<ec::g2_curve>();
    }
    path_ = std::filesystem::temp_directory_path() / ("c2_srs_test_" + std::to_string(seed_) + ".params");
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // Writes pk, reads it back through read_srs_file.
  result<std::shared_ptr<const groth16::proving_key>> round_trip(const groth16::proving_key& pk) {
    if (status s = formats::write_bellperson_params_file(pk, path_); !s.ok()) return s;
    return read_srs_file(path_.string());
  }

  ec::g1_affine g1_outside() const {
    ec::g1_affine p;
    ff::fp x = ff::fp::from_uint(seed_ % 1000 + 1);
    while (!ec::lift_x(x, p) || ec::is_in_subgroup(p)) x += ff::fp::one();
    return p;
  }
  ec::g2_affine g2_outside() const {
    ec::g2_affine q;
    ff::fp2 x{ff::fp::from_uint(seed_ % 1000 + 1), ff::fp::one()};
    while (!ec::lift_x(x, q) || ec::is_in_subgroup(q)) x += ff::fp2{ff::fp::one(), ff::fp::zero()};
    return q;
  }

  uint64_t seed_ = 0;
  groth16::proving_key pk_;
  std::filesystem::path path_;
};

void expect_refused(const result<std::shared_ptr<const groth16::proving_key>>& r, const std::string& field,
                    const std::string& why) {
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument)) << field << " was accepted";
  EXPECT_NE(r.error().message().find(field), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find(why), std::string::npos) << r.error().message();
}

TEST_F(SrsFile, ReadsBackWhatProofpipeWrote) {
  const auto r = round_trip(pk_);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE((*r)->vk.delta_g1 == pk_.vk.delta_g1);
  EXPECT_EQ((*r)->h.size(), pk_.h.size());
}

// A parameters file replaced by `cp` while the ABI's loader reads it (truncated at a random moment
// of the load): the load ends in the key (the truncation came after) or data_loss, which the ABI
// returns as EINVAL; never in SIGBUS.
TEST_F(SrsFile, ParametersTruncatedWhileTheyLoadAreDataLoss) {
  ASSERT_THAT(formats::write_bellperson_params_file(pk_, path_), IsOk());
  const std::filesystem::path copy = path_.string() + ".live";
  std::filesystem::copy_file(path_, copy, std::filesystem::copy_options::overwrite_existing);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_THAT(read_srs_file(copy.string()), IsOk());
  const auto load_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  std::mt19937 rng(static_cast<uint32_t>(seed_));
  for (int round = 0; round < 100; ++round) {
    std::filesystem::copy_file(path_, copy, std::filesystem::copy_options::overwrite_existing);
    const auto delay = std::chrono::microseconds(rng() % (load_us + 1));
    std::thread cp([&] {
      std::this_thread::sleep_for(delay);
      EXPECT_EQ(::truncate(copy.c_str(), 0), 0);
    });
    const auto r = read_srs_file(copy.string());
    cp.join();
    if (!r.ok()) EXPECT_EQ(r.error().code(), status_code::data_loss) << r.error().to_string();
  }
  std::filesystem::remove(copy);
}

TEST_F(SrsFile, VerifyingKeyPointsOutsideTheSubgroupAreRefused) {
  groth16::proving_key bad = pk_;
  bad.vk.delta_g1 = g1_outside();
  expect_refused(round_trip(bad), "vk.delta_g1", "not in the prime-order subgroup");
  bad = pk_;
  bad.vk.gamma_g2 = g2_outside();
  expect_refused(round_trip(bad), "vk.gamma_g2", "not in the prime-order subgroup");
  bad = pk_;
  bad.vk.ic.back() = g1_outside();
  expect_refused(round_trip(bad), "vk.ic[" + std::to_string(bad.vk.ic.size() - 1) + "]",
                 "not in the prime-order subgroup");
}

TEST_F(SrsFile, PointsOffTheCurveAreRefused) {
  groth16::proving_key bad = pk_;
  bad.l[bad.l.size() / 2].y += ff::fp::one();
  expect_refused(round_trip(bad), "l[" + std::to_string(bad.l.size() / 2) + "]", "not on the BLS12-381 curve");
}

TEST_F(SrsFile, QueryPointsOutsideTheSubgroupAreNamed) {
  EXPECT_THAT(check_query_subgroups(pk_), IsOk());
  const auto refused = [](const groth16::proving_key& pk, const std::string& field) {
    const status s = check_query_subgroups(pk);
    EXPECT_THAT(s, StatusIs(status_code::invalid_argument)) << field << " was accepted";
    EXPECT_NE(s.message().find(field + ": point on the curve but not in the prime-order subgroup"), std::string::npos)
        << s.message();
  };
  groth16::proving_key bad = pk_;
  bad.l.back() = g1_outside();
  refused(bad, "l[" + std::to_string(bad.l.size() - 1) + "]");
  bad.h[3] = g1_outside();  // h comes first in the file: the first point outside is h[3]
  refused(bad, "h[3]");
  bad = pk_;
  bad.b_g2.front() = g2_outside();
  refused(bad, "b_g2[0]");
  bad = pk_;
  bad.a[bad.a.size() / 3] = g1_outside();
  refused(bad, "a[" + std::to_string(bad.a.size() / 3) + "]");
}

}  // namespace
}  // namespace pp::c2

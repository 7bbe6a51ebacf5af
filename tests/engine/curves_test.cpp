// curves (src/engine/curves.hpp): a curve is served when some device proves it, healthy or not; a
// curve none proves is failed_precondition naming the key, its curve and every device with what it
// proves.
#include "engine/curves.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

bool mentions(const status& s, const std::string& what) { return s.message().find(what) != std::string::npos; }

constexpr curve_mask bls_only = curve_bit(ec::curve_id::bls12_381);
constexpr curve_mask both = curve_bit(ec::curve_id::bls12_381) | curve_bit(ec::curve_id::bn254);

TEST(Curves, MasksHoldTheirCurves) {
  EXPECT_TRUE(has_curve(both, ec::curve_id::bn254));
  EXPECT_TRUE(has_curve(both, ec::curve_id::bls12_381));
  EXPECT_FALSE(has_curve(bls_only, ec::curve_id::bn254));
  EXPECT_NE(curve_bit(ec::curve_id::bn254), curve_bit(ec::curve_id::bls12_381));
  EXPECT_EQ(curve_text(ec::curve_id::bn254), "BN254 (bn128)");
  EXPECT_EQ(curve_text(ec::curve_id::bls12_381), "BLS12-381 (bls12381)");
}

TEST(Curves, ACurveIsServedWhenAnyDeviceProvesIt) {
  const std::vector<device_curves> devices{{"gpu0", bls_only}, {"cpu0", both}};
  EXPECT_THAT(check_curve_served("k", ec::curve_id::bn254, devices), IsOk());
  EXPECT_THAT(check_curve_served("k", ec::curve_id::bls12_381, devices), IsOk());
}

TEST(Curves, ACurveNoDeviceProvesIsRefusedNamingTheCurveAndTheDevices) {
  const std::vector<device_curves> gpus{{"gpu0", bls_only}, {"gpu1", bls_only}};
  const status s = check_curve_served("circuit", ec::curve_id::bn254, gpus);
  ASSERT_THAT(s, StatusIs(status_code::failed_precondition));
  EXPECT_TRUE(mentions(s, "key 'circuit'")) << s.message();
  EXPECT_TRUE(mentions(s, "BN254 (bn128)")) << s.message();
  EXPECT_TRUE(mentions(s, "gpu0 proves BLS12-381; gpu1 proves BLS12-381")) << s.message();
  EXPECT_THAT(check_curve_served("circuit", ec::curve_id::bn254, {}), StatusIs(status_code::failed_precondition));
}

}  // namespace
}  // namespace pp::engine

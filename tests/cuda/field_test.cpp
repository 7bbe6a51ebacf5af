// Device field arithmetic (src/ff/mont_mul_device.hpp, mont_dot_device.hpp) against the host path: Fp, Fr and Fp2
// operations on every pair of edge values plus 10^6 fresh random inputs each, compared limb by limb.
#include <gtest/gtest.h>

#include "device_ops.hpp"
#include "gpu_test_util.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

constexpr int64_t kRandom = 1'000'000;

template <op O>
void check_field_op(int64_t n_random) {
  using D = op_def<O>;
  using F = typename D::a_t;
  std::mt19937_64 rng(pp::test::test_seed());
  const std::vector<F> edges = edge_elements<F>();
  std::vector<F> a, b;
  a.reserve(edges.size() * edges.size() + n_random);
  b.reserve(a.capacity());
  for (const F& x : edges) {
    for (const F& y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (int64_t i = 0; i < n_random; ++i) {
    a.push_back(random_element<F>(rng));
    b.push_back(random_element<F>(rng));
  }
  const int64_t n = static_cast<int64_t>(a.size());
  std::vector<typename D::out_t> want(n), got(n);
  parallel_for(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) want[i] = D::apply(a[i], b[i]);
  });
  const status s = run_on_device<O>(a.data(), b.data(), got.data(), n);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(count_mismatches(D::name, want, got), 0) << "of " << n << " inputs";
  testing::Test::RecordProperty("inputs", std::to_string(n));
}

TEST(DeviceField, FpMul) { check_field_op<op::fp_mul>(kRandom); }
TEST(DeviceField, FpSqr) { check_field_op<op::fp_sqr>(kRandom); }
TEST(DeviceField, FpAdd) { check_field_op<op::fp_add>(kRandom); }
TEST(DeviceField, FpSub) { check_field_op<op::fp_sub>(kRandom); }
TEST(DeviceField, FpNeg) { check_field_op<op::fp_neg>(kRandom); }
TEST(DeviceField, FpInverse) { check_field_op<op::fp_inv>(kRandom); }
TEST(DeviceField, FpMulSub) { check_field_op<op::fp_mul_sub>(kRandom); }
TEST(DeviceField, FpMulSubSquares) { check_field_op<op::fp_mul_sub_squares>(kRandom); }
TEST(DeviceField, FrMul) { check_field_op<op::fr_mul>(kRandom); }
TEST(DeviceField, FrSqr) { check_field_op<op::fr_sqr>(kRandom); }
TEST(DeviceField, FrAdd) { check_field_op<op::fr_add>(kRandom); }
TEST(DeviceField, FrSub) { check_field_op<op::fr_sub>(kRandom); }
TEST(DeviceField, FrInverse) { check_field_op<op::fr_inv>(kRandom); }
TEST(DeviceField, Fp2Mul) { check_field_op<op::fp2_mul>(kRandom); }
TEST(DeviceField, Fp2Sqr) { check_field_op<op::fp2_sqr>(kRandom); }
TEST(DeviceField, Fp2Add) { check_field_op<op::fp2_add>(kRandom); }
TEST(DeviceField, Fp2Sub) { check_field_op<op::fp2_sub>(kRandom); }
TEST(DeviceField, Fp2Inverse) { check_field_op<op::fp2_inv>(kRandom); }
TEST(DeviceField, Fp2MulSub) { check_field_op<op::fp2_mul_sub>(kRandom); }
TEST(DeviceField, Fp2MulSubSquares) { check_field_op<op::fp2_mul_sub_squares>(kRandom); }

}  // namespace
}  // namespace pp::cuda::test

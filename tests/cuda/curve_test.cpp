// Device G1/G2 point formulas (src/ec, XYZZ and Jacobian) against the host on the same inputs:
// 10^6 fresh random points per operation with random Z, plus infinity, P + P, P + (-P) and the
// generator. Compared limb by limb, then again after to_affine on the host.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "device_ops.hpp"
#include "ec/batch_to_affine.hpp"
#include "gpu_test_util.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

constexpr int64_t kRandom = 1'000'000;

// n random points of the prime-order subgroup: 64 walks P, P + S, P + 2S, ... from random
// multiples of the generator, then one batch conversion to affine per walk.
template <class C>
std::vector<ec::affine<C>> random_points(std::mt19937_64& rng, int64_t n) {
  constexpr int64_t walks = 64;
  std::vector<ff::fr> start(walks), step(walks);
  for (int64_t w = 0; w < walks; ++w) {
    start[w] = random_element<ff::fr>(rng);
    step[w] = random_element<ff::fr>(rng);
  }
  const int64_t len = (n + walks - 1) / walks;
  std::vector<ec::jacobian<C>> j(n);
  std::vector<ec::affine<C>> out(n);
  parallel_for(walks, [&](int64_t w0, int64_t w1) {
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t lo = std::min(n, w * len), hi = std::min(n, lo + len);
      if (lo >= hi) continue;
      auto acc = ec::scalar_mul(ec::generator<C>(), start[w]);
      const auto s = ec::to_affine(ec::scalar_mul(ec::generator<C>(), step[w]));
      for (int64_t i = lo; i < hi; ++i) {
        j[i] = acc;
        acc = ec::add(acc, s);
      }
      ec::batch_to_affine(j.data() + lo, out.data() + lo, static_cast<size_t>(hi - lo));
    }
  });
  return out;
}

// The affine point p as a T (affine, XYZZ or Jacobian) with projective factor z.
template <class T, class C>
T lift(const ec::affine<C>& p, const typename C::field& z) {
  if constexpr (std::is_same_v<T, ec::affine<C>>) {
    return p;
  } else {
    if (ec::is_infinity(p)) return T::infinity();
    const auto zz = z.sqr();
    const auto zzz = zz * z;
    if constexpr (std::is_same_v<T, ec::xyzz<C>>) {
      return T{p.x * zz, p.y * zzz, zz, zzz};
    } else {
      return T{p.x * zz, p.y * zzz, z};
    }
  }
}

template <class F>
F random_nonzero(std::mt19937_64& rng) {
  for (;;) {
    const F z = random_element<F>(rng);
    if (!z.is_zero()) return z;
  }
}

template <op O>
void check_curve_op(int64_t n_random) {
  using D = op_def<O>;
  using A = typename D::a_t;
  using B = typename D::b_t;
  using C = typename A::curve;
  using F = typename C::field;
  std::mt19937_64 rng(pp::test::test_seed());
  const auto pa = random_points<C>(rng, n_random);
  const auto pb = random_points<C>(rng, n_random);
  std::vector<F> za(n_random), zb(n_random);
  for (int64_t i = 0; i < n_random; ++i) {
    za[i] = random_nonzero<F>(rng);
    zb[i] = random_nonzero<F>(rng);
  }

  // Edge pairs first: infinity on either side, P + P (two representations of one point, so the
  // formula's h == 0 branch is taken), P + (-P), the generator, then the random pairs.
  const auto g = ec::generator<C>();
  const auto q = pa.at(0);
  const F z1 = random_nonzero<F>(rng), z2 = random_nonzero<F>(rng);
  std::vector<A> a = {A::infinity(), A::infinity(), lift<A>(g, z1), lift<A>(g, z1), lift<A>(g, z1),
                      lift<A>(g, z1), lift<A>(q, z2), lift<A>(q, z2), lift<A>(ec::neg(q), z1)};
  std::vector<B> b = {B::infinity(), lift<B>(q, z1), B::infinity(), lift<B>(g, z2), lift<B>(ec::neg(g), z2),
                      lift<B>(g, z1), lift<B>(g, z2), lift<B>(q, z1), lift<B>(q, z2)};
  const int64_t n_edges = static_cast<int64_t>(a.size());
  const int64_t n = n_edges + n_random;
  a.resize(n);
  b.resize(n);
  parallel_for(n_random, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      a[n_edges + i] = lift<A>(pa[i], za[i]);
      b[n_edges + i] = lift<B>(pb[i], zb[i]);
    }
  });

  using Out = typename D::out_t;
  std::vector<Out> want(n), got(n);
  parallel_for(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) want[i] = D::apply(a[i], b[i]);
  });
  const status s = run_on_device<O>(a.data(), b.data(), got.data(), n);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(count_mismatches(D::name, want, got), 0) << "of " << n << " inputs (projective limbs)";

  // The same results as affine points (host conversion), as the backend's users will see them.
  std::vector<ec::affine<C>> want_aff(n), got_aff(n);
  parallel_for(n, [&](int64_t lo, int64_t hi) {
    ec::batch_to_affine(want.data() + lo, want_aff.data() + lo, static_cast<size_t>(hi - lo));
    ec::batch_to_affine(got.data() + lo, got_aff.data() + lo, static_cast<size_t>(hi - lo));
  });
  EXPECT_EQ(count_mismatches(D::name, want_aff, got_aff), 0) << "of " << n << " inputs (affine)";
  // Sanity of the edge results themselves: P + (-P) and inf + inf are infinity, P + P = 2P.
  EXPECT_TRUE(ec::is_infinity(got_aff[0]));
  EXPECT_EQ(got_aff[3], ec::to_affine(ec::dbl(ec::to_jacobian(g)))) << "P + P, or 2P";
  if (std::string(D::name).find("dbl") == std::string::npos) {
    EXPECT_TRUE(ec::is_infinity(got_aff[4])) << "P + (-P)";
  }
  for (int64_t i = 0; i < n; i += 9973) EXPECT_TRUE(ec::is_on_curve(got_aff[i])) << "at " << i;
  testing::Test::RecordProperty("inputs", std::to_string(n));
}

TEST(DeviceG1, XyzzAdd) { check_curve_op<op::g1_xyzz_add>(kRandom); }
TEST(DeviceG1, XyzzMadd) { check_curve_op<op::g1_xyzz_madd>(kRandom); }
TEST(DeviceG1, XyzzDbl) { check_curve_op<op::g1_xyzz_dbl>(kRandom); }
TEST(DeviceG1, JacobianAdd) { check_curve_op<op::g1_jac_add>(kRandom); }
TEST(DeviceG1, JacobianMadd) { check_curve_op<op::g1_jac_madd>(kRandom); }
TEST(DeviceG1, JacobianDbl) { check_curve_op<op::g1_jac_dbl>(kRandom); }
TEST(DeviceG2, XyzzAdd) { check_curve_op<op::g2_xyzz_add>(kRandom); }
TEST(DeviceG2, XyzzMadd) { check_curve_op<op::g2_xyzz_madd>(kRandom); }
TEST(DeviceG2, XyzzDbl) { check_curve_op<op::g2_xyzz_dbl>(kRandom); }
TEST(DeviceG2, JacobianAdd) { check_curve_op<op::g2_jac_add>(kRandom); }
TEST(DeviceG2, JacobianMadd) { check_curve_op<op::g2_jac_madd>(kRandom); }
TEST(DeviceG2, JacobianDbl) { check_curve_op<op::g2_jac_dbl>(kRandom); }

}  // namespace
}  // namespace pp::cuda::test

// GPU NTT (src/cuda/ntt/ntt_device.hpp) against the host NTT (src/poly/ntt.hpp) on fresh random inputs:
// every size 2^0..2^20, forward / inverse / coset forward / coset inverse, all four orders and the
// out-of-place natural-order transform (ntt_into), both root families, compared element by element;
// one 2^24 case; a round trip; every tile shape, and the 64-register kernel; intt_shifted against the
// host intt times s^x; the plans of a card with 99 KiB of shared memory per block (sm_86, sm_89,
// sm_120) forced on this one; argument errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuda/ntt/ntt_device.hpp"
#include "device_buffer.hpp"
#include "gpu_test_util.hpp"
#include "poly/bit_reverse.hpp"
#include "poly/ntt.hpp"
#include "poly/powers.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

using ff::fr;
using poly::ntt_order;

constexpr ntt_order kOrders[] = {ntt_order::nn, ntt_order::nr, ntt_order::rn, ntt_order::rr};
constexpr ntt_kind kKinds[] = {ntt_kind::forward, ntt_kind::inverse, ntt_kind::coset_forward, ntt_kind::coset_inverse};


status host_transform(const poly::evaluation_domain& d, std::vector<fr>& a, ntt_kind k, ntt_order o) {
  switch (k) {
    case ntt_kind::forward: return poly::ntt(d, a, o);
    case ntt_kind::inverse: return poly::intt(d, a, o);
    case ntt_kind::coset_forward: return poly::coset_ntt(d, a, o);
    case ntt_kind::coset_inverse: return poly::coset_intt(d, a, o);
  }
  return internal_error("kind");
}

// With a tuning, through run_ntt with that tuning's plan (inside the domain's shared memory); else
// the public per-kind functions.
status device_transform(const device_ntt_domain& dd, fr* d_a, ntt_kind k, ntt_order o, cudaStream_t s,
                        const ntt_tuning* tuning = nullptr) {
  if (tuning != nullptr) {
    auto plan = make_ntt_plan(dd.log_size(), *tuning, dd.max_shared_bytes());
    if (!plan.ok()) return plan.error();
    return run_ntt(dd, d_a, k, o, *plan, s);
  }
  switch (k) {
    case ntt_kind::forward: return ntt(dd, d_a, o, s);
    case ntt_kind::inverse: return intt(dd, d_a, o, s);
    case ntt_kind::coset_forward: return coset_ntt(dd, d_a, o, s);
    case ntt_kind::coset_inverse: return coset_intt(dd, d_a, o, s);
  }
  return internal_error("kind");
}

// Every kind and order at 2^log_n for one family; returns the number of mismatching elements.
// max_shared_bytes: the domain's shared-memory cap (0: the device's).
int64_t check_size(int log_n, ff::root_family family, std::mt19937_64& rng, const std::vector<ntt_kind>& kinds,
                   const std::vector<ntt_order>& orders, const ntt_tuning* tuning = nullptr,
                   uint64_t max_shared_bytes = 0) {
  auto d = poly::evaluation_domain::create(log_n, family);
  EXPECT_THAT(d, IsOk());
  if (!d.ok()) return 1;
  const uint64_t n = d->size();
  const uint64_t ws = device_ntt_domain::workspace_bytes(*d);
  device_buffer tables(ws), data(n * sizeof(fr)), out(n * sizeof(fr));
  EXPECT_NE(tables.p, nullptr);
  EXPECT_NE(data.p, nullptr);
  EXPECT_NE(out.p, nullptr);
  if (!tables.p || !data.p || !out.p) return 1;
  auto dd = device_ntt_domain::create(*d, tables.p, ws, nullptr, max_shared_bytes);
  EXPECT_THAT(dd, IsOk());
  if (!dd.ok()) return 1;
  if (max_shared_bytes != 0) EXPECT_LE(dd->max_shared_bytes(), max_shared_bytes);
  fr* d_a = static_cast<fr*>(data.p);
  fr* d_out = static_cast<fr*>(out.p);
  int64_t bad_total = 0;
  std::vector<fr> in(n), want, got(n);
  for (ntt_kind k : kinds) {
    for (ntt_order o : orders) {
      parallel_for(int64_t(n), [&, seed = rng()](int64_t lo, int64_t hi) {
        std::mt19937_64 r(seed ^ uint64_t(lo) * 0x9e3779b97f4a7c15ull);
        for (int64_t i = lo; i < hi; ++i) in[i] = random_element<fr>(r);
      });
      want = in;
      const status hs = host_transform(*d, want, k, o);
      EXPECT_THAT(hs, IsOk());
      // Poison the output side first: every element must be written by the transform.
      EXPECT_EQ(cudaMemset(d_a, 0xff, n * sizeof(fr)), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
      const status ds = device_transform(*dd, d_a, k, o, nullptr, tuning);
      EXPECT_THAT(ds, IsOk());
      EXPECT_EQ(cudaMemcpy(got.data(), d_a, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
      const std::string what = std::string(ntt_kind_name(k)) + " " + poly::ntt_order_name(o) + " 2^" +
                               std::to_string(log_n) + (family == ff::root_family::snarkjs5 ? " snarkjs5" : " generator7");
      const int64_t bad = count_mismatches(what.c_str(), want, got);
      EXPECT_EQ(bad, 0) << what;
      bad_total += bad;
      if (o != ntt_order::nn) continue;
      // The same transform out of place (the input buffer is scratch).
      EXPECT_EQ(cudaMemset(d_out, 0xff, n * sizeof(fr)), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
      status is = ok_status();
      if (tuning != nullptr) {
        auto plan = make_ntt_plan(log_n, *tuning, dd->max_shared_bytes());
        is = plan.ok() ? run_ntt_into(*dd, d_a, d_out, k, *plan, nullptr) : plan.error();
      } else {
        is = ntt_into(*dd, d_a, d_out, k, nullptr);
      }
      EXPECT_THAT(is, IsOk());
      EXPECT_EQ(cudaMemcpy(got.data(), d_out, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
      const int64_t bad_into = count_mismatches((what + " into").c_str(), want, got);
      EXPECT_EQ(bad_into, 0) << what << " into";
      bad_total += bad_into;
    }
  }
  return bad_total;
}

std::vector<ntt_kind> all_kinds() { return {std::begin(kKinds), std::end(kKinds)}; }
std::vector<ntt_order> all_orders() { return {std::begin(kOrders), std::end(kOrders)}; }

void check_all_sizes(ff::root_family family, const char* what, const ntt_tuning* tuning = nullptr,
                     uint64_t max_shared_bytes = 0) {
  std::mt19937_64 rng(pp::test::test_seed());
  int cases = 0;
  for (int log_n = 0; log_n <= 20; ++log_n) {
    const int64_t bad = check_size(log_n, family, rng, all_kinds(), all_orders(), tuning, max_shared_bytes);
    std::printf("%s 2^%d: 20 transforms, %lld mismatches\n", what, log_n, static_cast<long long>(bad));
    cases += 20;
  }
  testing::Test::RecordProperty("cases", std::to_string(cases));
}

TEST(DeviceNtt, Generator7AllSizesKindsOrders) { check_all_sizes(ff::root_family::generator7, "ntt generator7"); }
TEST(DeviceNtt, Snarkjs5AllSizesKindsOrders) { check_all_sizes(ff::root_family::snarkjs5, "ntt snarkjs5"); }
// The 8-elements-per-thread kernel (radix-8 rounds, 2^11 tiles) the same way.
TEST(DeviceNtt, EightPerThreadAllSizesKindsOrders) {
  const ntt_tuning t{.tile_log = 11, .min_columns_log = 2, .elements_log = 3};
  check_all_sizes(ff::root_family::generator7, "ntt 8 per thread", &t);
}

// The 4-per-thread kernel's other compilations (the default is the 64-register one with twiddles
// just in time): 80 registers, and 64 with twiddles loaded ahead.
TEST(DeviceNtt, RegisterCapsAllSizesKindsOrders) {
  const ntt_tuning r80{.tile_log = 9, .min_columns_log = 1, .elements_log = 2};
  check_all_sizes(ff::root_family::generator7, "ntt 80 registers", &r80);
  const ntt_tuning ahead{.tile_log = 9, .min_columns_log = 1, .elements_log = 2, .max_registers = 64};
  check_all_sizes(ff::root_family::snarkjs5, "ntt 64 registers, twiddles ahead", &ahead);
}

// intt_shifted(a, s) = the host intt, then coefficient x times s^x, in every order: with the
// domain's coset tables (then ntt of it equals the host coset_ntt of the coefficients) and with a
// random shift whose tables the test builds at several splits lo_log; every tuning shape.
TEST(DeviceNtt, InttShiftedAllSizesOrders) {
  std::mt19937_64 rng(pp::test::test_seed());
  const ntt_tuning tunings[] = {ntt_tuning_sm90,
                                {.tile_log = 11, .min_columns_log = 2, .elements_log = 3},
                                {.tile_log = 9, .min_columns_log = 1, .elements_log = 2},
                                {.tile_log = 9, .min_columns_log = 1, .elements_log = 2, .max_registers = 64}};
  int cases = 0;
  for (int log_n = 0; log_n <= 18; ++log_n) {
    const ff::root_family family = log_n % 2 ? ff::root_family::snarkjs5 : ff::root_family::generator7;
    auto d = poly::evaluation_domain::create(log_n, family);
    ASSERT_THAT(d, IsOk());
    const uint64_t n = d->size(), ws = device_ntt_domain::workspace_bytes(*d);
    device_buffer tables(ws), data(n * sizeof(fr)), own(2 * n * sizeof(fr) + 64);
    ASSERT_TRUE(tables.p && data.p && own.p);
    auto dd = device_ntt_domain::create(*d, tables.p, ws, nullptr);
    ASSERT_THAT(dd, IsOk());
    fr* d_a = static_cast<fr*>(data.p);
    // A random shift s, split at lo_log (0, the middle, log_n in turn): lo = s^i, hi = s^(i 2^lo_log) / n.
    const fr s = random_element<fr>(rng);
    const int lo_log = (log_n % 3 == 0) ? 0 : (log_n % 3 == 1) ? log_n / 2 : log_n;
    std::vector<fr> lo(uint64_t{1} << lo_log), hi(n >> lo_log);
    poly::fill_powers(lo, s);
    poly::fill_powers(hi, s.pow(lo.size()), d->size_inv());
    fr* d_lo = static_cast<fr*>(own.p);
    fr* d_hi = d_lo + lo.size();
    ASSERT_EQ(cudaMemcpy(d_lo, lo.data(), lo.size() * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d_hi, hi.data(), hi.size() * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
    const device_shift_powers random_shift{d_lo, d_hi, lo_log};
    std::vector<fr> in(n), want, got(n), sx(n);
    for (const bool coset : {true, false}) {
      poly::fill_powers(sx, coset ? d->coset_shift() : s);
      const device_shift_powers p = coset ? dd->coset_shift_powers() : random_shift;
      for (ntt_order o : kOrders) {
        for (const ntt_tuning& t : tunings) {
          for (auto& x : in) x = random_element<fr>(rng);
          want = in;
          ASSERT_THAT(poly::intt(*d, want, o), IsOk());
          const bool out_rev = o == ntt_order::nr || o == ntt_order::rr;
          for (uint64_t j = 0; j < n; ++j) want[j] = want[j] * sx[out_rev ? poly::bit_reverse_index(j, log_n) : j];
          auto plan = make_ntt_plan(log_n, t, dd->max_shared_bytes());
          ASSERT_THAT(plan, IsOk());
          ASSERT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
          ASSERT_THAT(run_intt_shifted(*dd, d_a, o, p, *plan, nullptr), IsOk());
          ASSERT_EQ(cudaMemcpy(got.data(), d_a, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
          const std::string what = std::string("intt_shifted ") + (coset ? "coset " : "random ") +
                                   poly::ntt_order_name(o) + " 2^" + std::to_string(log_n) + " " + to_string(*plan);
          EXPECT_EQ(count_mismatches(what.c_str(), want, got), 0) << what;
          ++cases;
        }
      }
    }
    // The identity the H step relies on: ntt rn of intt_shifted nr = the host coset_ntt of intt.
    for (auto& x : in) x = random_element<fr>(rng);
    want = in;
    ASSERT_THAT(poly::intt(*d, want, ntt_order::nn), IsOk());
    ASSERT_THAT(poly::coset_ntt(*d, want, ntt_order::nn), IsOk());
    ASSERT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_THAT(intt_shifted(*dd, d_a, ntt_order::nr, dd->coset_shift_powers(), nullptr), IsOk());
    ASSERT_THAT(ntt(*dd, d_a, ntt_order::rn, nullptr), IsOk());
    ASSERT_EQ(cudaMemcpy(got.data(), d_a, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(count_mismatches(("coset_ntt(intt) 2^" + std::to_string(log_n)).c_str(), want, got), 0);
    std::printf("intt_shifted 2^%d: %d cases so far\n", log_n, cases);
  }
  testing::Test::RecordProperty("cases", std::to_string(cases));
}

// A card with 99 KiB of dynamic shared memory per block (sm_86, sm_89, sm_120), forced on this one:
// the 2^12 tiles of the 8-per-thread kernel do not fit, so its plans run on 2^11 tiles; every size,
// kind and order still equals the host NTT, and so do the default plans.
constexpr uint64_t kSharedBytes99KiB = 99 * 1024;
TEST(DeviceNtt, SharedMemoryOf99KiBAllSizesKindsOrders) {
  const ntt_tuning t{.tile_log = 12, .min_columns_log = 2, .elements_log = 3};
  auto p = make_ntt_plan(20, t, kSharedBytes99KiB);
  ASSERT_THAT(p, IsOk());
  std::printf("99 KiB plan: %s (%llu bytes per block)\n", to_string(*p).c_str(),
              static_cast<unsigned long long>(shared_bytes(*p)));
  check_all_sizes(ff::root_family::generator7, "ntt 99 KiB tile 2^12 tuning", &t, kSharedBytes99KiB);
  check_all_sizes(ff::root_family::snarkjs5, "ntt 99 KiB default", nullptr, kSharedBytes99KiB);
}

// A plan whose tiles need more shared memory than the domain allows is refused, not launched.
TEST(DeviceNtt, PlanBeyondTheDomainsSharedMemory) {
  auto d = poly::evaluation_domain::create(14);
  ASSERT_THAT(d, IsOk());
  const uint64_t n = d->size(), ws = device_ntt_domain::workspace_bytes(*d);
  device_buffer tables(ws), data(n * sizeof(fr)), out(n * sizeof(fr));
  ASSERT_TRUE(tables.p && data.p && out.p);
  auto dd = device_ntt_domain::create(*d, tables.p, ws, nullptr, kSharedBytes99KiB);
  ASSERT_THAT(dd, IsOk());
  EXPECT_EQ(dd->max_shared_bytes(), kSharedBytes99KiB);
  auto big = make_ntt_plan(14, ntt_tuning{.tile_log = 12, .min_columns_log = 2, .elements_log = 3});
  ASSERT_THAT(big, IsOk());
  ASSERT_GT(shared_bytes(*big), kSharedBytes99KiB);
  fr* d_a = static_cast<fr*>(data.p);
  EXPECT_EQ(run_ntt(*dd, d_a, ntt_kind::forward, ntt_order::nn, *big, nullptr).code(), status_code::invalid_argument);
  EXPECT_EQ(run_ntt_into(*dd, d_a, static_cast<fr*>(out.p), ntt_kind::forward, *big, nullptr).code(),
            status_code::invalid_argument);
  // The device's own figure (227 KiB on sm_90) takes the 2^12 tile.
  auto full = device_ntt_domain::create(*d, tables.p, ws, nullptr);
  ASSERT_THAT(full, IsOk());
  EXPECT_GE(full->max_shared_bytes(), kSharedBytes99KiB);
  std::printf("device dynamic shared memory per block (opt-in): %llu bytes\n",
              static_cast<unsigned long long>(full->max_shared_bytes()));
  if (full->max_shared_bytes() >= shared_bytes(*big)) {
    EXPECT_THAT(run_ntt(*full, d_a, ntt_kind::forward, ntt_order::nn, *big, nullptr), IsOk());
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// 2^24: four passes' worth of strided stages; forward nn and coset inverse nn, in place and into.
TEST(DeviceNtt, Size24) {
  std::mt19937_64 rng(pp::test::test_seed());
  EXPECT_EQ(check_size(24, ff::root_family::generator7, rng, {ntt_kind::forward, ntt_kind::coset_inverse},
                       {ntt_order::nn}),
            0);
}

// Every (elements per thread, tile) pair the kernels take.
std::vector<std::pair<int, int>> tile_shapes() {
  std::vector<std::pair<int, int>> v;
  for (int et : {3, 2}) {
    // From 2^5: smaller tiles need more than the plan's four passes at 2^18.
    for (int tile_log = 5; tile_log <= ntt_max_tile_log(et); ++tile_log) v.emplace_back(et, tile_log);
  }
  return v;
}

// The tunings of every tile shape: both register caps of the 4-per-thread kernel, both twiddle modes.
std::vector<ntt_tuning> tile_tunings() {
  std::vector<ntt_tuning> v;
  for (const auto& [et, tile_log] : tile_shapes()) {
    v.push_back({.tile_log = tile_log, .min_columns_log = 0, .elements_log = et});
    if (et == 2 && tile_log <= ntt_max_tile_log(2, 64)) {
      v.push_back({.tile_log = tile_log, .min_columns_log = 0, .elements_log = 2, .max_registers = 64});
      v.push_back({.tile_log = tile_log, .min_columns_log = 0, .elements_log = 2, .max_registers = 64,
                   .twiddles_ahead = false});
    }
  }
  return v;
}

// nr then rn round-trips with no permutation; every tile shape the tuning allows gives the same result.
TEST(DeviceNtt, RoundTripAndPlans) {
  std::mt19937_64 rng(pp::test::test_seed());
  const int log_n = 18;
  auto d = poly::evaluation_domain::create(log_n);
  ASSERT_THAT(d, IsOk());
  const uint64_t n = d->size(), ws = device_ntt_domain::workspace_bytes(*d);
  device_buffer tables(ws), data(n * sizeof(fr)), out(n * sizeof(fr));
  ASSERT_TRUE(tables.p && data.p && out.p);
  auto dd = device_ntt_domain::create(*d, tables.p, ws, nullptr);
  ASSERT_THAT(dd, IsOk());
  fr* d_a = static_cast<fr*>(data.p);
  fr* d_out = static_cast<fr*>(out.p);
  std::vector<fr> in(n), got(n), ref;
  for (auto& x : in) x = random_element<fr>(rng);
  ASSERT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_THAT(coset_ntt(*dd, d_a, ntt_order::nr, nullptr), IsOk());
  ASSERT_THAT(coset_intt(*dd, d_a, ntt_order::rn, nullptr), IsOk());
  ASSERT_EQ(cudaMemcpy(got.data(), d_a, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(count_mismatches("coset round trip", in, got), 0);

  ref = in;
  ASSERT_THAT(poly::ntt(*d, ref, ntt_order::nn), IsOk());
  for (const ntt_tuning& t : tile_tunings()) {
    auto plan = make_ntt_plan(log_n, t);
    ASSERT_THAT(plan, IsOk());
    ASSERT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_THAT(run_ntt(*dd, d_a, ntt_kind::forward, ntt_order::nn, *plan, nullptr), IsOk());
    ASSERT_EQ(cudaMemcpy(got.data(), d_a, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(count_mismatches(to_string(*plan).c_str(), ref, got), 0) << to_string(*plan);
    ASSERT_EQ(cudaMemcpy(d_a, in.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(d_out, 0xff, n * sizeof(fr)), cudaSuccess);
    ASSERT_THAT(run_ntt_into(*dd, d_a, d_out, ntt_kind::forward, *plan, nullptr), IsOk());
    ASSERT_EQ(cudaMemcpy(got.data(), d_out, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(count_mismatches((to_string(*plan) + " into").c_str(), ref, got), 0) << to_string(*plan) << " into";
  }
}

TEST(DeviceNtt, ArgumentErrors) {
  auto d = poly::evaluation_domain::create(10);
  ASSERT_THAT(d, IsOk());
  const uint64_t ws = device_ntt_domain::workspace_bytes(*d);
  device_buffer tables(ws);
  ASSERT_TRUE(tables.p);
  EXPECT_EQ(device_ntt_domain::create(*d, tables.p, ws - 1, nullptr).error().code(), status_code::invalid_argument);
  EXPECT_EQ(device_ntt_domain::create(*d, nullptr, ws, nullptr).error().code(), status_code::invalid_argument);
  auto dd = device_ntt_domain::create(*d, tables.p, ws, nullptr);
  ASSERT_THAT(dd, IsOk());
  EXPECT_EQ(ntt(*dd, nullptr, ntt_order::nn, nullptr).code(), status_code::invalid_argument);
  device_buffer data(2 * d->size() * sizeof(fr));
  ASSERT_TRUE(data.p);
  fr* d_a = static_cast<fr*>(data.p);
  EXPECT_EQ(ntt_into(*dd, d_a, nullptr, ntt_kind::forward, nullptr).code(), status_code::invalid_argument);
  EXPECT_EQ(ntt_into(*dd, d_a, d_a + 1, ntt_kind::forward, nullptr).code(), status_code::invalid_argument);
  EXPECT_THAT(ntt_into(*dd, d_a, d_a + d->size(), ntt_kind::forward, nullptr), IsOk());
  EXPECT_EQ(make_ntt_plan(29).error().code(), status_code::invalid_argument);
  EXPECT_EQ(make_ntt_plan(20, ntt_tuning{.tile_log = 11, .min_columns_log = 1, .elements_log = 2}).error().code(),
            status_code::invalid_argument);
  EXPECT_EQ(make_ntt_plan(20, ntt_tuning{.tile_log = 10, .min_columns_log = 1, .elements_log = 4}).error().code(),
            status_code::invalid_argument);
  // The 64-register kernel: 4 per thread only, tiles up to 2^9; twiddles just in time only there.
  EXPECT_EQ(make_ntt_plan(20, {.tile_log = 10, .min_columns_log = 1, .elements_log = 2, .max_registers = 64})
                .error().code(),
            status_code::invalid_argument);
  EXPECT_EQ(make_ntt_plan(20, {.tile_log = 9, .min_columns_log = 1, .elements_log = 3, .max_registers = 64})
                .error().code(),
            status_code::invalid_argument);
  EXPECT_EQ(make_ntt_plan(20, {.tile_log = 9, .min_columns_log = 1, .elements_log = 2, .twiddles_ahead = false})
                .error().code(),
            status_code::invalid_argument);
  EXPECT_EQ(intt_shifted(*dd, d_a, ntt_order::nn, device_shift_powers{}, nullptr).code(), status_code::invalid_argument);
  device_shift_powers too_wide = dd->coset_shift_powers();
  too_wide.lo_log = 11;
  EXPECT_EQ(intt_shifted(*dd, d_a, ntt_order::nn, too_wide, nullptr).code(), status_code::invalid_argument);
}

}  // namespace
}  // namespace pp::cuda::test

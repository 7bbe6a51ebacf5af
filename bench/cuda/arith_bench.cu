// Throughput of the device arithmetic on one GPU, reported per SM per clock so that GPUs and
// clocks compare: Fp, Fr and Fp2 Montgomery multiplication and squaring, Fp addition, Fp, Fr and Fp2
// inversion (safegcd against Fermat), G1 and G2 XYZZ mixed addition and G1 batch-affine addition.
// Each thread runs K independent dependent chains; results go to global memory. Timed with CUDA events (median of 5 after a
// warm-up); the SM clock under load is read in-kernel (clock64 against %globaltimer). Prints a
// table; "SM-clk/op" = time * clock * SMs / ops; column K|mb is the chains per thread (field
// cases), the __launch_bounds__ minimum blocks (madd cases) or the additions per inversion
// (batch-affine cases); then the inversions in products, the batch-affine rows against the madd and
// each curve's batch-affine floor (docs/perf/msm-h200.md, "Issue 33's aims against the floor").
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench_points.hpp"
#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/runtime/device_info.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "support/seed.hpp"

namespace pp::cuda::bench {
namespace {

struct clock_sample {
  long long clk0, clk1, ns0, ns1;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

enum class field_op { mul, sqr, add };

// x_k <- x_k * y_k, x_k^2 or x_k + y_k (modular), iters times, K chains per thread.
template <class F, int K, field_op Op>
__global__ void op_chains(F* d_x, const F* d_y, int iters, clock_sample* d_clk) {
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const long long c0 = clock64();
  const unsigned long long n0 = global_ns();
  F x[K], y[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    x[k] = d_x[t + k * stride];
    y[k] = d_y[t + k * stride];
  }
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if constexpr (Op == field_op::mul) x[k] = x[k] * y[k];
      if constexpr (Op == field_op::sqr) x[k] = x[k].sqr();
      if constexpr (Op == field_op::add) x[k] = x[k] + y[k];
    }
  }
#pragma unroll
  for (int k = 0; k < K; ++k) d_x[t + k * stride] = x[k];
  if (threadIdx.x == 0) d_clk[blockIdx.x] = {c0, clock64(), (long long)n0, (long long)global_ns()};
}

// x <- inverse(x) + y, iters times, one chain per thread: safegcd (ff/safegcd_inverse.hpp) or the
// Fermat power it replaced (x^(p-2)), the reference for the ratio printed below the table.
template <class F, bool Fermat>
__global__ void inverse_chains(F* d_x, const F* d_y, int iters, clock_sample* d_clk) {
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long c0 = clock64();
  const unsigned long long n0 = global_ns();
  F x = d_x[t];
  const F y = d_y[t];
  for (int i = 0; i < iters; ++i) {
    if constexpr (Fermat) {
      constexpr auto e = ff::limbs::copy(F::params::m_minus_2);
      x = x.pow(e.v, F::n64) + y;
    } else {
      x = x.inverse() + y;
    }
  }
  d_x[t] = x;
  if (threadIdx.x == 0) d_clk[blockIdx.x] = {c0, clock64(), (long long)n0, (long long)global_ns()};
}

// acc <- madd(acc, q): q from registers (arithmetic only) or, with Stream, read each step from an
// L2-resident table of affine points (the MSM bucket-accumulation access shape).
template <class Curve, bool Stream, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
    madd_chains(ec::xyzz<Curve>* d_acc, const ec::affine<Curve>* d_q, int table_mask, int iters, clock_sample* d_clk) {
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long c0 = clock64();
  const unsigned long long n0 = global_ns();
  ec::xyzz<Curve> acc = d_acc[t];
  ec::affine<Curve> q = d_q[t & table_mask];
  for (int i = 0; i < iters; ++i) {
    if constexpr (Stream) q = d_q[(t + 977 * i) & table_mask];
    acc = ec::madd(acc, q);
  }
  d_acc[t] = acc;
  if (threadIdx.x == 0) d_clk[blockIdx.x] = {c0, clock64(), (long long)n0, (long long)global_ns()};
}

// S affine accumulators per thread, each adding a point of an L2-resident table every step, all S
// slopes sharing one inversion (Montgomery's trick): the batch-affine accumulation that issue 13's
// first lever asks about, priced per addition against the XYZZ madd rows (docs/perf/msm-h200.md).
// Per addition: 3 products for the trick, 1 + 1S + 1 for the affine sum, 1/S of an inversion.
// Random points only (no equal x: the MSM would need the doubling / cancellation cases).
template <int S>
__global__ void __launch_bounds__(128, 1) affine_batch_chains(ec::g1_affine* d_acc, const ec::g1_affine* d_q, int table_mask,
                                                           int iters, clock_sample* d_clk) {
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long c0 = clock64();
  const unsigned long long n0 = global_ns();
  ec::g1_affine acc[S];
  ff::fp prefix[S];
#pragma unroll 1
  for (int s = 0; s < S; ++s) acc[s] = d_acc[t * S + s];
  for (int i = 0; i < iters; ++i) {
    ff::fp run = ff::fp::one();
#pragma unroll 1
    for (int s = 0; s < S; ++s) {
      const ec::g1_affine q = d_q[(t * S + s + 977 * i) & table_mask];
      prefix[s] = run;
      run *= q.x - acc[s].x;
    }
    ff::fp inv = run.inverse();
#pragma unroll 1
    for (int s = S - 1; s >= 0; --s) {
      const ec::g1_affine q = d_q[(t * S + s + 977 * i) & table_mask];
      const ff::fp dx = q.x - acc[s].x;
      const ff::fp dx_inv = inv * prefix[s];
      inv *= dx;
      const ff::fp lambda = (q.y - acc[s].y) * dx_inv;
      const ff::fp x3 = lambda.sqr() - acc[s].x - q.x;
      acc[s].y = lambda * (acc[s].x - x3) - acc[s].y;
      acc[s].x = x3;
    }
  }
#pragma unroll 1
  for (int s = 0; s < S; ++s) d_acc[t * S + s] = acc[s];
  if (threadIdx.x == 0) d_clk[blockIdx.x] = {c0, clock64(), (long long)n0, (long long)global_ns()};
}

struct row {
  std::string name;
  int threads_per_block = 0;
  int blocks = 0;
  int chains = 0;
  double ops = 0;
  double ms = 0;
  double clock_ghz = 0;
};

double measured_clock_ghz(const std::vector<clock_sample>& s) {
  double clk = 0, ns = 0;
  for (const auto& c : s) {
    clk += double(c.clk1 - c.clk0);
    ns += double(c.ns1 - c.ns0);
  }
  return ns > 0 ? clk / ns : 0;
}

// Runs launch() once to warm up, then 5 times; keeps the median time and its clock reading.
template <class Launch>
status time_it(Launch&& launch, int blocks, double& ms, double& ghz) {
  clock_sample* d_clk = nullptr;
  PP_CUDA_TRY(cudaMalloc(&d_clk, sizeof(clock_sample) * blocks));
  cudaEvent_t e0, e1;
  PP_CUDA_TRY(cudaEventCreate(&e0));
  PP_CUDA_TRY(cudaEventCreate(&e1));
  std::vector<std::pair<double, double>> runs;
  std::vector<clock_sample> clk_host(blocks);
  for (int r = 0; r < 6; ++r) {
    PP_CUDA_TRY(cudaEventRecord(e0));
    launch(d_clk);
    PP_CUDA_TRY(cudaGetLastError());
    PP_CUDA_TRY(cudaEventRecord(e1));
    PP_CUDA_TRY(cudaEventSynchronize(e1));
    float t = 0;
    PP_CUDA_TRY(cudaEventElapsedTime(&t, e0, e1));
    PP_CUDA_TRY(cudaMemcpy(clk_host.data(), d_clk, sizeof(clock_sample) * blocks, cudaMemcpyDeviceToHost));
    if (r > 0) runs.push_back({t, measured_clock_ghz(clk_host)});
  }
  std::sort(runs.begin(), runs.end());
  ms = runs[runs.size() / 2].first;
  ghz = runs[runs.size() / 2].second;
  PP_CUDA_TRY(cudaEventDestroy(e0));
  PP_CUDA_TRY(cudaEventDestroy(e1));
  PP_CUDA_TRY(cudaFree(d_clk));
  return ok_status();
}

template <class F>
F random_element(std::mt19937_64& rng) {
  if constexpr (requires { F::n64; }) {
    uint64_t l[F::n64];
    for (auto& w : l) w = rng();
    l[F::n64 - 1] &= (1ull << (F::bits - 64 * (F::n64 - 1) - 1)) - 1;  // below the modulus
    return F::from_montgomery(l);
  } else {
    const auto c0 = random_element<typename F::base>(rng);
    return F{c0, random_element<typename F::base>(rng)};
  }
}

template <class F>
std::vector<F> random_elements(std::mt19937_64& rng, int64_t n) {
  std::vector<F> v(n);
  for (auto& x : v) x = random_element<F>(rng);
  return v;
}

template <class Kernel>
int blocks_for(Kernel k, int threads, int sms) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, 0) != cudaSuccess) per_sm = 1;
  return std::max(1, per_sm) * sms;
}

// Host operands copied to the device (x and y of any lengths); freed with the object.
template <class F>
struct device_operands {
  F* x = nullptr;
  F* y = nullptr;
  device_operands() = default;
  device_operands(const device_operands&) = delete;
  device_operands& operator=(const device_operands&) = delete;
  ~device_operands() {
    cudaFree(x);
    cudaFree(y);
  }
  status upload(const std::vector<F>& x_host, const std::vector<F>& y_host) {
    PP_CUDA_TRY(cudaMalloc(&x, sizeof(F) * x_host.size()));
    PP_CUDA_TRY(cudaMalloc(&y, sizeof(F) * y_host.size()));
    PP_CUDA_TRY(cudaMemcpy(x, x_host.data(), sizeof(F) * x_host.size(), cudaMemcpyHostToDevice));
    PP_CUDA_TRY(cudaMemcpy(y, y_host.data(), sizeof(F) * y_host.size(), cudaMemcpyHostToDevice));
    return ok_status();
  }
};

template <class F, int K, field_op Op>
status field_case(const char* name, int threads, int iters, const device_info& dev, std::mt19937_64& rng,
                  std::vector<row>& out) {
  auto kernel = op_chains<F, K, Op>;
  const int blocks = blocks_for(kernel, threads, dev.sm_count);
  const int64_t n = int64_t(blocks) * threads * K;
  device_operands<F> d;
  PP_RETURN_IF_ERROR(d.upload(random_elements<F>(rng, n), random_elements<F>(rng, n)));
  row r{name, threads, blocks, K, double(n) * iters, 0, 0};
  PP_RETURN_IF_ERROR(time_it([&](clock_sample* d_clk) { kernel<<<blocks, threads>>>(d.x, d.y, iters, d_clk); },
                             blocks, r.ms, r.clock_ghz));
  out.push_back(r);
  return ok_status();
}

template <class F, bool Fermat>
status inverse_case(const char* name, int threads, int iters, const device_info& dev, std::mt19937_64& rng,
                    std::vector<row>& out) {
  auto kernel = inverse_chains<F, Fermat>;
  const int blocks = blocks_for(kernel, threads, dev.sm_count);
  const int64_t n = int64_t(blocks) * threads;
  const auto x_host = random_elements<F>(rng, n), y_host = random_elements<F>(rng, n);
  device_operands<F> d;
  PP_RETURN_IF_ERROR(d.upload(x_host, y_host));
  row r{name, threads, blocks, 1, double(n) * iters, 0, 0};
  PP_RETURN_IF_ERROR(time_it([&](clock_sample* d_clk) { kernel<<<blocks, threads>>>(d.x, d.y, iters, d_clk); },
                             blocks, r.ms, r.clock_ghz));
  // Same chain both ways: the safegcd result must equal the Fermat power's (checked on the host).
  std::vector<F> got(n);
  PP_CUDA_TRY(cudaMemcpy(got.data(), d.x, sizeof(F) * n, cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i < n; i += 997) {
    F want = x_host[i];
    for (int k = 0; k < 6 * iters; ++k) want = want.inverse() + y_host[i];  // 1 warm-up + 5 timed runs
    if (want != got[i]) return internal_error(std::string(name) + ": device chain differs from the host's");
  }
  out.push_back(r);
  return ok_status();
}

template <int S>
status affine_batch_case(const char* name, int iters, const device_info& dev, std::mt19937_64& rng,
                         std::vector<row>& out) {
  constexpr int threads = 128;
  const int blocks = blocks_for(affine_batch_chains<S>, threads, dev.sm_count);
  const int64_t n = int64_t(blocks) * threads;
  constexpr int table = 1 << 16;  // 6 MiB of affine points: L2-resident
  const std::vector<ec::g1_affine> q_host = random_points<ec::g1_curve>(rng(), table);
  std::vector<ec::g1_affine> acc_host(n * S);
  for (int64_t i = 0; i < n * S; ++i) acc_host[i] = q_host[(i * 7 + 3) % table];
  device_operands<ec::g1_affine> d;  // x: the accumulators, y: the table
  PP_RETURN_IF_ERROR(d.upload(acc_host, q_host));
  row r{name, threads, blocks, S, double(n) * S * iters, 0, 0};
  PP_RETURN_IF_ERROR(time_it(
      [&](clock_sample* d_clk) { affine_batch_chains<S><<<blocks, threads>>>(d.x, d.y, table - 1, iters, d_clk); },
      blocks, r.ms, r.clock_ghz));
  out.push_back(r);
  return ok_status();
}

template <class Curve, bool Stream, int Threads, int MinBlocks>
status madd_case(const char* name, int iters, const device_info& dev, std::mt19937_64& rng,
                 std::vector<row>& out) {
  using point = ec::affine<Curve>;
  using acc_point = ec::xyzz<Curve>;
  constexpr int threads = Threads;
  const int blocks = blocks_for(madd_chains<Curve, Stream, Threads, MinBlocks>, threads, dev.sm_count);
  const int64_t n = int64_t(blocks) * threads;
  constexpr int table = 1 << 16;  // 6 (G1) or 12 (G2) MiB of affine points: L2-resident
  const std::vector<point> q_host = random_points<Curve>(rng(), table);
  std::vector<acc_point> acc_host(n);
  for (int64_t i = 0; i < n; ++i) acc_host[i] = ec::to_xyzz(q_host[(i * 7 + 3) % table]);
  acc_point* d_acc = nullptr;
  point* d_q = nullptr;
  PP_CUDA_TRY(cudaMalloc(&d_acc, sizeof(acc_point) * n));
  PP_CUDA_TRY(cudaMalloc(&d_q, sizeof(point) * table));
  PP_CUDA_TRY(cudaMemcpy(d_acc, acc_host.data(), sizeof(acc_point) * n, cudaMemcpyHostToDevice));
  PP_CUDA_TRY(cudaMemcpy(d_q, q_host.data(), sizeof(point) * table, cudaMemcpyHostToDevice));
  row r{name, threads, blocks, MinBlocks, double(n) * iters, 0, 0};
  const status s = time_it(
      [&](clock_sample* d_clk) {
        madd_chains<Curve, Stream, Threads, MinBlocks><<<blocks, threads>>>(d_acc, d_q, table - 1, iters, d_clk);
      },
      blocks, r.ms, r.clock_ghz);
  PP_CUDA_TRY(cudaFree(d_acc));
  PP_CUDA_TRY(cudaFree(d_q));
  if (!s.ok()) return s;
  out.push_back(r);
  return ok_status();
}

status run() {
  PP_ASSIGN_OR_RETURN(const int count, device_count());
  if (count == 0) {
    std::printf("no CUDA device\n");
    return unavailable("no CUDA device");
  }
  PP_ASSIGN_OR_RETURN(const device_info dev, query_device(0));
  std::printf("device %s\n", to_string(dev).c_str());
  std::mt19937_64 rng(pp::test::run_seed());
  std::vector<row> rows;
  PP_RETURN_IF_ERROR((field_case<ff::fp, 1, field_op::mul>("fp_mul", 256, 4000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp, 2, field_op::mul>("fp_mul", 256, 2000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp, 4, field_op::mul>("fp_mul", 128, 1000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp, 2, field_op::mul>("fp_mul", 128, 2000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp, 1, field_op::sqr>("fp_sqr", 256, 4000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp, 2, field_op::sqr>("fp_sqr", 256, 2000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fr, 1, field_op::mul>("fr_mul", 256, 8000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fr, 2, field_op::mul>("fr_mul", 256, 4000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fr, 4, field_op::mul>("fr_mul", 256, 2000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp2, 1, field_op::mul>("fp2_mul", 256, 1000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp2, 2, field_op::mul>("fp2_mul", 256, 500, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp2, 1, field_op::sqr>("fp2_sqr", 256, 1000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp2, 2, field_op::sqr>("fp2_sqr", 256, 500, dev, rng, rows)));
  PP_RETURN_IF_ERROR((field_case<ff::fp, 4, field_op::add>("fp_add", 256, 8000, dev, rng, rows)));
  PP_RETURN_IF_ERROR((inverse_case<ff::fp, false>("fp_inverse", 128, 20, dev, rng, rows)));
  PP_RETURN_IF_ERROR((inverse_case<ff::fp, true>("fp_inverse(fermat)", 128, 20, dev, rng, rows)));
  PP_RETURN_IF_ERROR((inverse_case<ff::fr, false>("fr_inverse", 128, 20, dev, rng, rows)));
  PP_RETURN_IF_ERROR((inverse_case<ff::fr, true>("fr_inverse(fermat)", 128, 20, dev, rng, rows)));
  PP_RETURN_IF_ERROR((inverse_case<ff::fp2, false>("fp2_inverse", 128, 20, dev, rng, rows)));
  // Register caps from __launch_bounds__: (256,1) none, (128,3) <= 168, (256,2) <= 128 per thread.
  using ec::g1_curve, ec::g2_curve;
  PP_RETURN_IF_ERROR((madd_case<g1_curve, false, 256, 1>("g1_xyzz_madd(reg)", 400, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g1_curve, false, 128, 1>("g1_xyzz_madd(reg)", 400, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g1_curve, false, 128, 3>("g1_xyzz_madd(reg)", 400, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g1_curve, false, 256, 2>("g1_xyzz_madd(reg)", 400, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g1_curve, true, 256, 1>("g1_xyzz_madd(L2)", 400, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g1_curve, true, 128, 3>("g1_xyzz_madd(L2)", 400, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g2_curve, true, 256, 1>("g2_xyzz_madd(L2)", 100, dev, rng, rows)));
  PP_RETURN_IF_ERROR((madd_case<g2_curve, true, 128, 2>("g2_xyzz_madd(L2)", 100, dev, rng, rows)));
  PP_RETURN_IF_ERROR((affine_batch_case<8>("g1_affine_batch(L2)", 50, dev, rng, rows)));
  PP_RETURN_IF_ERROR((affine_batch_case<16>("g1_affine_batch(L2)", 25, dev, rng, rows)));
  PP_RETURN_IF_ERROR((affine_batch_case<32>("g1_affine_batch(L2)", 13, dev, rng, rows)));
  PP_RETURN_IF_ERROR((affine_batch_case<64>("g1_affine_batch(L2)", 7, dev, rng, rows)));

  const double sms = dev.sm_count;
  std::printf("\n%-20s %5s %6s %4s %12s %9s %9s %10s %12s %12s\n", "case", "thr/b", "blocks", "K|mb", "ops",
              "ms", "clk GHz", "Gop/s", "SM-clk/op", "@nominal");
  for (const auto& r : rows) {
    const double s = r.ms * 1e-3;
    const double gops = r.ops / s * 1e-9;
    const double smclk = s * r.clock_ghz * 1e9 * sms / r.ops;
    const double smclk_nominal = s * dev.clock_khz * 1e3 * sms / r.ops;
    std::printf("%-20s %5d %6d %4d %12.4g %9.3f %9.3f %10.3f %12.2f %12.2f\n", r.name.c_str(), r.threads_per_block,
                r.blocks, r.chains, r.ops, r.ms, r.clock_ghz, gops, smclk, smclk_nominal);
  }
  // Inversions in products of the same field (the fastest product row of that field) and against Fermat.
  auto smclk_of = [&](const row& r) { return r.ms * 1e-3 * r.clock_ghz * 1e9 * sms / r.ops; };
  auto best = [&](const std::string& name) {
    double b = 0;
    for (const auto& r : rows)
      if (r.name == name && (b == 0 || smclk_of(r) < b)) b = smclk_of(r);
    return b;
  };
  const double madd = best("g1_xyzz_madd(L2)");
  for (const auto& r : rows)
    if (r.name == "g1_affine_batch(L2)")
      std::printf("g1 batch-affine addition, %d per inversion: %.1f SM-clk = %.2fx the best XYZZ madd (L2)\n", r.chains,
                  smclk_of(r), smclk_of(r) / madd);
  for (const char* f : {"fp", "fr"}) {
    const std::string f_str = f;
    const double mul = best(f_str + "_mul"), inv = best(f_str + "_inverse"), fermat = best(f_str + "_inverse(fermat)");
    std::printf("%s inverse: %.0f SM-clk = %.1f products; Fermat %.0f SM-clk = %.1f products; Fermat / safegcd %.2fx\n",
                f, inv, inv / mul, fermat, fermat / mul, fermat / inv);
  }
  const double m = best("fp_mul"), sq = best("fp_sqr"), a = best("fp_add"), inv = best("fp_inverse");
  const double m2 = best("fp2_mul"), sq2 = best("fp2_sqr"), inv2 = best("fp2_inverse"), madd2 = best("g2_xyzz_madd(L2)");
  std::printf("fp square: %.2f SM-clk = %.2f products; fp2 product %.2f = %.2f fp products, fp2 square %.2f = %.2f\n", sq,
              sq / m, m2, m2 / m, sq2, sq2 / m);
  std::printf("fp2 inverse: %.0f SM-clk = %.1f fp2 products; g1 madd %.1f SM-clk = %.2f fp products; g2 madd %.1f = %.2f fp2 products\n",
              inv2, inv2 / m2, madd, madd / m, madd2, madd2 / m2);
  // A batch-affine addition's arithmetic: Montgomery's trick (3M), the slope (1M), x3 (1S), y3 (1M),
  // six subtractions; with no inversion and no memory traffic (its floor), then with one inversion
  // per 64 additions.
  const double floor1 = 5 * m + sq + 6 * a, floor2 = 5 * m2 + sq2 + 12 * a;
  std::printf("g1 batch-affine floor: %.1f SM-clk = %.2fx the XYZZ madd (L2); with an inversion per 64: %.1f = %.2fx\n",
              floor1, floor1 / madd, floor1 + inv / 64, (floor1 + inv / 64) / madd);
  std::printf("g2 batch-affine floor: %.1f SM-clk = %.2fx the XYZZ madd (L2); with an inversion per 64: %.1f = %.2fx\n",
              floor2, floor2 / madd2, floor2 + inv2 / 64, (floor2 + inv2 / 64) / madd2);
  return ok_status();
}

}  // namespace
}  // namespace pp::cuda::bench

int main() {
  const pp::status s = pp::cuda::bench::run();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.to_string().c_str());
    return s.code() == pp::status_code::unavailable ? 77 : 1;
  }
  return 0;
}

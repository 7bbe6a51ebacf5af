// One Groth16 partition on the CUDA backend (src/cuda/prover/cuda_backend.hpp) for the synthetic
// PoRep-shaped circuit (r1cs::synthetic_params::porep: 2.4/1.0/2.2 non-zeros per row, A/B aux
// density 99.7%/25%, witness ~90% 0/1; constraints fill 130.3/134.2 of the 2^k domain, so 2^27 is a
// full PoRep partition). The key comes from the insecure setup with its points made on the GPU
// (cuda::fixed_base_device), so every proof is valid and self-verified; --random-key makes random
// key points instead (timing only). Per size: circuit and key times, device memory (resident key
// vs one partition workspace), per-step GPU time from CUDA events (median of the warm runs), then
// the lanes phase: `lanes` threads prove at once and the GPU busy fraction comes from the lanes'
// kernel intervals. Up to --cpu-check-max-log the proof is also compared with cpu_backend's.
// Machine-readable lines "result NAME VALUE" feed scripts/h200_json.py.
// --vram-budgets-gib B,B,... (0: unlimited) proves each size on one backend per budget instead, the
// key made once and its tables pinned once: per budget the plan, GPU time per partition, h2d bytes
// per partition, the device memory the process took (cudaMemGetInfo), the lanes phase's throughput,
// and whether the proof is identical to the unlimited budget's; "budget_run" lines feed
// docs/perf/vram-budgets.json. Usage:
// Budgets mode's extras: --lanes-per-thread P (the lanes phase's partitions per lane, 3);
// --steady-gib B,... --steady-partitions N (these budgets' lanes phases prove N partitions, 10: a
// PoRep proof, and report the steady rate without the ramp); the share of each partition's streamed
// copies that ran under its kernels (from the trace spans); --two-keys-gib B [--small-log L] (the
// key and a 2^L one, 24 by default, in one backend of B GiB: bench_two_keys); --pageable-gib B
// (budget B again with pinning off: how much slower pageable streaming is). --h-copies N: the
// backend's cuda_backend_config::h_copies (precomputed copies of H's points where memory is left;
// 1, none, by default). --h2d-gib-s R,...: each budget once per cap on the partitions' host-to-device
// copies (cuda_backend_config::h2d_cap_bytes_per_s, 0: none; ratios against the unlimited budget at the
// same cap). --together K: each steady budget (below unlimited) runs its lanes phase again with K
// partitions a cuda_backend::start_together (the streamed copies of L, A, B_G1 and B_G2 shared by
// the K; "budget_together" lines). Usage:
//   cuda_prover_bench [--snarkjs] [--lanes L] [--runs R] [--random-key] [--cpu-check-max-log K] [--h-copies N]
//                     [--vram-budgets-gib B,... [--lanes-per-thread P] [--steady-gib B,...]
//                     [--steady-partitions N] [--two-keys-gib B] [--small-log L] [--pageable-gib B]
//                     [--h2d-gib-s R,...] [--together K]] log_n...
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bench_fail_fast.hpp"
#include "bench_list_arg.hpp"
#include "core/mutex.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "cuda/runtime/pinned_host.hpp"
#include "cuda/setup/fixed_base_device.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "msm_points.hpp"
#include "r1cs/synthetic.hpp"
#include "r1cs/synthetic_stats.hpp"

namespace {

using pp::ff::fr;
using pp::groth16::h_basis;
using pp::bench::clock_type;

using pp::bench::secs;
using pp::bench::take;
constexpr double gib = 1073741824.0;


struct options {
  h_basis basis = h_basis::monomial;
  uint32_t lanes = 2;
  int runs = 5;
  bool random_key = false;
  int cpu_check_max_log = 20;
  std::vector<double> budgets_gib;  // --vram-budgets-gib; 0 = unlimited
  int lanes_per_thread = 3;         // --lanes-per-thread: the lanes phase's partitions per thread
  std::vector<double> steady_gibs;  // --steady-gib B,...: these budgets' lanes phases run steady_partitions
  int steady_partitions = 10;       // --steady-partitions (a 10-partition PoRep proof)
  double two_keys_gib = -1;         // --two-keys-gib: the key with a smaller one (--small-log) in one region
  int small_log = 24;
  double pageable_gib = -1;         // --pageable-gib: this budget once more with pinning off
  uint32_t h_copies = 1;            // --h-copies: cuda_backend_config::h_copies
  std::vector<double> h2d_caps{0};  // --h2d-gib-s R,...: each budget once per host-to-device cap (0: none)
  int together = 1;                 // --together K: the steady budgets again, K partitions a start_together
};

// Per-run milliseconds of each prover step, the steps in the order first seen.
struct step_times {
  std::map<std::string, std::vector<double>> ms;
  std::vector<std::string> order;

  void add(const std::string& step, double v) {
    if (!ms.count(step)) order.push_back(step);
    ms[step].push_back(v);
  }
  // Every step of one proof; the GPU steps' ("gpu ...") total in ms.
  double add_steps(const pp::groth16::prove_timings& t) {
    double gpu = 0;
    for (const auto& st : t.steps) {
      const double v = std::chrono::duration<double, std::milli>(st.elapsed).count();
      add(st.name, v);
      if (st.name.rfind("gpu ", 0) == 0) gpu += v;
    }
    return gpu;
  }
};

// A key of the right shape with random points: timing only, proofs do not verify.
pp::groth16::proving_key random_key(const pp::r1cs::constraint_system& cs, h_basis basis, uint64_t n) {
  using namespace pp;
  groth16::proving_key pk;
  pk.basis = basis;
  pk.n_vars = uint32_t(cs.num_variables());
  pk.domain_size = uint32_t(n);
  const uint64_t nv = cs.num_variables();
  const uint64_t nh = basis == h_basis::monomial ? n - 1 : n;
  const uint64_t big = std::max(nv, nh);
  const auto g1 = cuda::test::random_points<ec::g1_curve>(1, big + 8);
  const auto g2 = cuda::test::random_points<ec::g2_curve>(2, nv + 4);
  pk.h.assign(g1.begin(), g1.begin() + nh);
  pk.l.assign(g1.begin() + 1, g1.begin() + 1 + cs.num_aux());
  pk.a.assign(g1.begin() + 2, g1.begin() + 2 + nv);
  pk.b_g1.assign(g1.begin() + 3, g1.begin() + 3 + nv);
  pk.b_g2.assign(g2.begin(), g2.begin() + nv);
  groth16::verifying_key& vk = pk.vk;
  vk.alpha_g1 = g1[0], vk.beta_g1 = g1[1], vk.delta_g1 = g1[2];
  vk.beta_g2 = g2[0], vk.gamma_g2 = g2[1], vk.delta_g2 = g2[2];
  vk.ic.assign(g1.begin() + 4, g1.begin() + 5 + cs.num_public());
  return pk;
}

// The PoRep-shaped circuit of 2^log_n constraints and its key: the insecure setup with the GPU
// multiplier, or random points under --random-key. Each step's seconds go to stderr.
struct bench_circuit {
  pp::r1cs::synthetic_circuit c;
  pp::groth16::proving_key pk;
  double circuit_s = 0, key_s = 0;

  // The witness with a fixed (r, s), self-verified when the key is real (not --random-key).
  pp::groth16::prove_request request(bool real) const {
    pp::groth16::prove_request req;
    req.pk = &pk;
    req.cs = &c.cs;
    req.witness = c.w;
    req.rs = pp::groth16::blinding{pp::ff::fr::from_uint(1234567), pp::ff::fr::from_uint(7654321)};
    req.options.self_verify = real;
    return req;
  }
};

bench_circuit make_bench_circuit(int log_n, const options& o, pp::cuda::fixed_base_device& points) {
  using namespace pp;
  bench_circuit b;
  auto t0 = clock_type::now();
  b.c = take(r1cs::make_synthetic(r1cs::synthetic_params::porep(r1cs::synthetic_params::porep_constraints(log_n), 42)),
             "make_synthetic");
  b.circuit_s = secs(t0);
  std::fprintf(stderr, "2^%d: circuit in %.1f s\n", log_n, b.circuit_s);
  t0 = clock_type::now();
  b.pk = o.random_key ? random_key(b.c.cs, o.basis, uint64_t{1} << log_n)
                      : take(groth16::setup_insecure(b.c.cs, o.basis, groth16::toxic_waste_from_seed_insecure(9), points),
                             "setup_insecure");
  b.key_s = secs(t0);
  std::fprintf(stderr, "2^%d: key in %.1f s\n", log_n, b.key_s);
  return b;
}

void bench(int log_n, const options& o, pp::cuda::cuda_backend& be, pp::cuda::fixed_base_device& points) {
  using namespace pp;
  const uint64_t n = uint64_t{1} << log_n;
  const int runs = o.runs;
  const std::string tag = "2_" + std::to_string(log_n);
  const bench_circuit b = make_bench_circuit(log_n, o, points);
  const r1cs::synthetic_circuit& c = b.c;
  const groth16::proving_key& pk = b.pk;
  const double t_circuit = b.circuit_s, t_key = b.key_s;
  const bool real = !o.random_key;
  if (pk.domain_size != n) {
    std::fprintf(stderr, "domain 2^%d expected, the key has %llu\n", log_n, (unsigned long long)pk.domain_size);
    std::exit(1);
  }
  auto t0 = clock_type::now();
  if (status st = be.prepare(pk, c.cs); !st.ok()) {
    std::fprintf(stderr, "prepare: %s\n", st.to_string().c_str());
    std::exit(1);
  }
  const double t_upload = secs(t0);
  const auto fp = take(be.resident_footprint(pk, c.cs), "resident_footprint");
  std::printf("\n== 2^%d (%s basis): %llu constraints, %llu variables; circuit %.1f s, %s %.1f s\n", log_n,
              o.basis == h_basis::monomial ? "monomial/bellperson" : "odd-coset/snarkjs",
              (unsigned long long)c.cs.num_constraints(), (unsigned long long)c.cs.num_variables(), t_circuit,
              real ? "insecure setup, points on the GPU (valid proofs)" : "RANDOM KEY POINTS (timing only, proofs NOT valid)",
              t_key);
  std::printf("%s", r1cs::to_string(r1cs::stats_of(c.cs, c.w)).c_str());
  std::printf("device memory: resident key %.2f GiB (points %.2f, matrices %.3f, tables %.3f); per partition (lane) "
              "%.2f GiB (MSM workspace %.2f); %u lanes: %.2f GiB in all\n",
              fp.resident_bytes() / gib, fp.points_bytes / gib, fp.matrices_bytes / gib, fp.tables_bytes / gib,
              fp.partition_bytes / gib, fp.msm_workspace_bytes / gib, fp.lanes, fp.total_bytes() / gib);
  std::printf("result partition_%s_vram_gib %.3f\n", tag.c_str(), fp.partition_bytes / gib);
  std::printf("result key_%s_vram_gib %.3f\n", tag.c_str(), fp.resident_bytes() / gib);
  std::printf("key upload (compaction, points, matrices, tables): %.2f s\n", t_upload);

  const groth16::prove_request req = b.request(real);
  step_times times;
  groth16::proof last{};
  for (int i = 0; i < runs + 1; ++i) {
    const auto s0 = clock_type::now();
    auto p = take(be.start(req), "start");
    const double t_start = secs(s0) * 1e3;
    const auto f0 = clock_type::now();
    auto out = take(be.finish(std::move(p)), "finish");
    const double t_finish = secs(f0) * 1e3;
    last = out.pi;
    if (i == 0) continue;  // warm-up
    const double gpu = times.add_steps(out.timings);
    times.add("= gpu total (events)", gpu);
    times.add("= start() wall", t_start);
    times.add("= finish() wall", t_finish);
  }
  std::printf("%-26s %10s %10s %10s   (ms over %d warm runs)\n", "step", "median", "min", "max", runs);
  for (const auto& k : times.order) {
    auto v = times.ms[k];
    std::sort(v.begin(), v.end());
    std::printf("%-26s %10.2f %10.2f %10.2f\n", k.c_str(), v[v.size() / 2], v.front(), v.back());
  }
  {
    auto v = times.ms["= gpu total (events)"];
    std::sort(v.begin(), v.end());
    std::printf("result partition_%s_s %.4f\n", tag.c_str(), v[v.size() / 2] / 1e3);
  }
  // Lanes: `lanes` threads prove 3 partitions each at once; wall time per partition and the GPU
  // busy fraction (union of the lanes' kernel intervals over their span) show the overlap.
  {
    const uint32_t threads = be.lanes();
    const int per_thread = 3;
    be.reset_activity();
    std::atomic<int> failures{0};
    const auto w0 = clock_type::now();
    std::vector<std::thread> pool;
    for (uint32_t t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (int j = 0; j < per_thread; ++j) {
          auto p = be.start(req);
          if (!p.ok() || !be.finish(std::move(p).value()).ok()) failures.fetch_add(1);
        }
      });
    }
    for (auto& th : pool) th.join();
    const double wall = secs(w0);
    const auto act = be.gpu_activity();
    const int total = int(threads) * per_thread;
    std::printf("lanes: %u threads x %d partitions: %.3f s wall, %.4f s per partition, GPU busy %.1f%% (%.0f of "
                "%.0f ms), %d failed\n",
                threads, per_thread, wall, wall / total, 100 * act.busy_fraction(), act.busy_ms, act.span_ms,
                failures.load());
    std::printf("result lanes_%s_s_per_partition %.4f\n", tag.c_str(), wall / total);
    std::printf("result lanes_%s_gpu_busy %.4f\n", tag.c_str(), act.busy_fraction());
  }
  if (real && log_n <= o.cpu_check_max_log) {
    groth16::cpu_backend cpu;
    t0 = clock_type::now();
    groth16::prove_request cpu_req = req;
    cpu_req.options.self_verify = false;
    const auto want = take(groth16::prove(cpu, cpu_req), "cpu prove");
    std::printf("cpu_backend on this host: %.2f s; CUDA proof %s the CPU proof and verified (self-verify)\n",
                secs(t0), want.pi == last ? "IDENTICAL to" : "DIFFERS FROM");
  } else if (real) {
    std::printf("CUDA proofs verified (self-verify); no CPU comparison above 2^%d\n", o.cpu_check_max_log);
  }
  be.clear_keys();
}


// Device memory this process holds now (the whole device's used memory: the lent GPU runs nothing else).
uint64_t device_used_bytes() {
  size_t free_b = 0, total_b = 0;
  BENCH_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return total_b - free_b;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The share of a partition's streamed copies (its "key stream h2d" span on the copy track) that ran
// while the lane's kernels did (its compute-track spans); -1 when nothing was streamed.
double copy_overlap(const pp::groth16::prove_timings& t) {
  const pp::groth16::prove_timings::span* copy = nullptr;
  for (const auto& sp : t.spans) {
    if (sp.name == "key stream h2d") copy = &sp;
  }
  if (copy == nullptr || copy->end <= copy->begin) return -1;
  std::chrono::duration<double> under{0};
  for (const auto& sp : t.spans) {
    if (sp.track.find("/compute") == std::string::npos) continue;
    const auto b = std::max(sp.begin, copy->begin), e = std::min(sp.end, copy->end);
    if (e > b) under += e - b;
  }
  return under / std::chrono::duration<double>(copy->end - copy->begin);
}

// Lanes phase: `threads` threads prove `total` partitions between them, one at a time (k = 1:
// groth16::prove) or k at a time through start_together (the same witness each: the bench's one;
// cuda_backend_test checks different ones), each proof compared with want. Wall time, partitions per
// hour over the whole run and in steady state (from the end of the first threads x k partitions to
// the last: the ramp left out), the GPU busy fraction, the host-to-device bytes a partition,
// failures and proofs that differ from want.
struct lanes_result {
  double wall_s = 0, per_hour = 0, steady_per_hour = 0, busy = 0, h2d_per_partition = 0;
  int failed = 0, differ = 0;
  step_times steps;  // every proved partition's steps (shared ones as a partition's share)
};
lanes_result run_lanes(pp::cuda::cuda_backend& be, const pp::groth16::prove_request& req, uint32_t threads, int total,
                       const pp::groth16::proof& want, int k = 1) {
  using namespace pp;
  be.reset_activity();
  const uint64_t h2d0 = be.h2d_bytes();
  std::atomic<int> next{0}, failures{0}, differ{0};
  std::vector<double> ends(size_t(total), 0);
  struct {
    pp::mutex mu;
    step_times steps PP_GUARDED_BY(mu);
  } proved;  // the lanes' threads add to it
  const auto w0 = clock_type::now();
  const auto check = [&](const result<groth16::prove_output>& r) {
    if (!r.ok()) {
      failures.fetch_add(1);
      return;
    }
    if (!(r->pi == want)) differ.fetch_add(1);
    pp::mutex_lock lock(proved.mu);
    proved.steps.add_steps(r->timings);
  };
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (int j; (j = next.fetch_add(k)) < total;) {
        const int count = std::min(k, total - j);
        if (k == 1) {
          check(groth16::prove(be, req));
        } else if (auto started = be.start_together(std::vector<groth16::prove_request>(size_t(count), req));
                   !started.ok()) {
          std::fprintf(stderr, "start_together: %s\n", started.error().to_string().c_str());
          failures.fetch_add(count);
        } else {
          for (auto& p : *started) check(be.finish(std::move(p)));
        }
        for (int i = 0; i < count; ++i) ends[size_t(j + i)] = secs(w0);
      }
    });
  }
  for (auto& th : pool) th.join();
  lanes_result out;
  out.wall_s = secs(w0);
  out.per_hour = 3600.0 * total / out.wall_s;
  std::sort(ends.begin(), ends.end());
  const size_t first = std::min<size_t>(size_t(threads) * size_t(k), ends.size()) - 1;
  if (ends.size() > first + 1 && ends.back() > ends[first]) {
    out.steady_per_hour = 3600.0 * double(ends.size() - 1 - first) / (ends.back() - ends[first]);
  }
  out.busy = be.gpu_activity().busy_fraction();
  out.h2d_per_partition = double(be.h2d_bytes() - h2d0) / total;
  out.failed = failures.load();
  out.differ = differ.load();
  pp::mutex_lock lock(proved.mu);
  out.steps = std::move(proved.steps);
  return out;
}

// Median GPU time (the "gpu " steps) of a prove_output's timings, in seconds.
double gpu_seconds(const pp::groth16::prove_timings& t) {
  double ms = 0;
  for (const auto& st : t.steps) {
    if (st.name.rfind("gpu ", 0) == 0) ms += std::chrono::duration<double, std::milli>(st.elapsed).count();
  }
  return ms / 1e3;
}

pp::cuda::cuda_backend_config budget_config(const options& o, double budget_gib, double h2d_cap_gib_s = 0) {
  pp::cuda::cuda_backend_config cfg;
  cfg.vram_share = 0.85;  // the fixed-base multiplier's buffers live beside the region
  cfg.staging_bytes = uint64_t{1} << 30;
  cfg.lanes = o.lanes;
  cfg.h_copies = o.h_copies;
  cfg.max_vram_bytes = budget_gib > 0 ? uint64_t(budget_gib * gib) : 0;
  cfg.h2d_cap_bytes_per_s = h2d_cap_gib_s * gib;
  return cfg;
}

// The key of log_n and a smaller PoRep-shaped one (a WindowPoSt-sized key) served by one backend
// under --two-keys-gib: the big key first, then the small one (planned beside it or with it), then
// both at once from the lanes' threads in a mixed order. Reports the plans, how often the region
// was planned again (1 at most: no thrash), each key's GPU time, the GPU busy fraction of the mixed
// phase and whether every proof equals its key's reference (big: the unlimited budget's; small:
// an unlimited backend's, made first).
void bench_two_keys(int log_n, const options& o, const pp::groth16::proving_key& pk,
                    const pp::r1cs::synthetic_circuit& c, const pp::groth16::proof& ref_big,
                    pp::cuda::fixed_base_device& points) {
  using namespace pp;
  auto t0 = clock_type::now();
  const r1cs::synthetic_circuit sc = take(
      r1cs::make_synthetic(r1cs::synthetic_params::porep(r1cs::synthetic_params::porep_constraints(o.small_log), 43)),
      "make_synthetic (small)");
  const groth16::proving_key spk =
      take(groth16::setup_insecure(sc.cs, o.basis, groth16::toxic_waste_from_seed_insecure(10), points),
           "setup (small)");
  std::fprintf(stderr, "2^%d: circuit and key in %.1f s\n", o.small_log, secs(t0));
  groth16::prove_request big, small;
  big.pk = &pk, big.cs = &c.cs, big.witness = c.w;
  small.pk = &spk, small.cs = &sc.cs, small.witness = sc.w;
  big.rs = small.rs = groth16::blinding{fr::from_uint(1234567), fr::from_uint(7654321)};
  big.options.self_verify = small.options.self_verify = true;
  groth16::proof ref_small;
  {
    auto be = take(cuda::cuda_backend::create(budget_config(o, 0)), "cuda_backend::create");
    ref_small = take(groth16::prove(*be, small), "prove (small, unlimited)").pi;
  }
  const uint64_t before = device_used_bytes();
  auto be = take(cuda::cuda_backend::create(budget_config(o, o.two_keys_gib)), "cuda_backend::create");
  bool same = true;
  t0 = clock_type::now();
  same &= take(groth16::prove(*be, big), "prove (big)").pi == ref_big;
  const double t_big_first = secs(t0);
  t0 = clock_type::now();
  same &= take(groth16::prove(*be, small), "prove (small)").pi == ref_small;
  const double t_small_first = secs(t0);
  // The big key may have been evicted by a re-plan: the footprints are read after it runs again.
  t0 = clock_type::now();
  same &= take(groth16::prove(*be, big), "prove (big, again)").pi == ref_big;
  const double t_big_again = secs(t0);
  const auto plan_of = [&](const groth16::proving_key& k, const r1cs::constraint_system& cs) {
    auto f = be->resident_footprint(k, cs);
    return f.ok() ? f->plan : "not placed: " + f.error().to_string();
  };
  std::printf("\n== two keys under %.0f GiB: 2^%d and 2^%d\n  2^%d: %s\n  2^%d: %s\n  region used %.2f of %.2f GiB; "
              "first proofs %.1f s (2^%d), %.1f s (2^%d, %s), %.1f s (2^%d again)\n",
              o.two_keys_gib, log_n, o.small_log, log_n, plan_of(pk, c.cs).c_str(), o.small_log,
              plan_of(spk, sc.cs).c_str(),
              be->used_bytes() / gib, be->capacity_bytes() / gib, t_big_first, log_n, t_small_first, o.small_log,
              be->replans() ? "the region planned again" : "beside it", t_big_again, log_n);
  // Mixed: 4 big and 8 small partitions in the order B S S B S S ..., from the lanes' threads.
  std::vector<const groth16::prove_request*> seq;
  for (int i = 0; i < 4; ++i) seq.insert(seq.end(), {&big, &small, &small});
  const uint64_t replans_before = be->replans();
  be->reset_activity();
  std::atomic<int> next{0}, bad{0};
  std::vector<double> gpu_big, gpu_small;
  pp::mutex mu;
  const auto w0 = clock_type::now();
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < be->lanes(); ++t) {
    pool.emplace_back([&] {
      for (int j; (j = next.fetch_add(1)) < int(seq.size());) {
        const groth16::prove_request& r = *seq[size_t(j)];
        auto out = groth16::prove(*be, r);
        if (!out.ok() || !(out->pi == (&r == &big ? ref_big : ref_small))) {
          bad.fetch_add(1);
          if (!out.ok()) std::printf("  mixed: %s\n", out.error().to_string().c_str());
          continue;
        }
        pp::mutex_lock lock(mu);
        (&r == &big ? gpu_big : gpu_small).push_back(gpu_seconds(out->timings));
      }
    });
  }
  for (auto& th : pool) th.join();
  const double wall = secs(w0);
  const auto act = be->gpu_activity();
  if (bad.load() != 0) same = false;
  const uint64_t peak = device_used_bytes() - before;
  const double mb = gpu_big.empty() ? 0 : median(gpu_big), ms = gpu_small.empty() ? 0 : median(gpu_small);
  std::printf("two keys: %zu partitions (4 of 2^%d, 8 of 2^%d) on %u thread(s) in %.2f s; GPU time 2^%d %.3f s, "
              "2^%d %.3f s; GPU busy %.1f%%; region planned again %llu time(s) in all, %llu during the mixed phase; "
              "device memory taken %.3f GiB; proofs %s\n",
              seq.size(), log_n, o.small_log, be->lanes(), wall, log_n, mb, o.small_log, ms, 100 * act.busy_fraction(),
              (unsigned long long)be->replans(), (unsigned long long)(be->replans() - replans_before), peak / gib,
              same ? "IDENTICAL to each key's reference" : "DIFFER");
  std::printf("two_keys log_n=%d small_log=%d budget_gib=%.0f replans=%llu replans_mixed=%llu big_partition_s=%.4f "
              "small_partition_s=%.4f mixed_wall_s=%.3f gpu_busy=%.4f peak_vram_gib=%.3f identical=%s\n",
              log_n, o.small_log, o.two_keys_gib, (unsigned long long)be->replans(),
              (unsigned long long)(be->replans() - replans_before), mb, ms, wall, act.busy_fraction(), peak / gib,
              same ? "true" : "false");
}

// The budget --pageable-gib once more with the streamed tables in pageable memory (what a host that
// refuses to pin gets, with a warning): GPU time per partition against the pinned run's.
void bench_pageable(int log_n, const options& o, const pp::groth16::proving_key& pk,
                    const pp::r1cs::synthetic_circuit& c, const pp::cuda::compact_r1cs& compact,
                    const pp::groth16::proof& ref, double pinned_s) {
  using namespace pp;
  cuda::cuda_backend_config cfg = budget_config(o, o.pageable_gib);
  cfg.pin_streamed = false;
  auto be = take(cuda::cuda_backend::create(cfg), "cuda_backend::create");
  if (status st = be->prepare(pk, c.cs, &compact); !st.ok()) {
    std::printf("pageable %.0f GiB: REFUSED: %s\n", o.pageable_gib, st.to_string().c_str());
    return;
  }
  groth16::prove_request req;
  req.pk = &pk, req.cs = &c.cs, req.witness = c.w;
  req.rs = groth16::blinding{fr::from_uint(1234567), fr::from_uint(7654321)};
  bool same = true;
  std::vector<double> gpu_s;
  double stream_ms = 0;
  const uint64_t h2d0 = be->h2d_bytes();
  for (int i = 0; i < 2; ++i) {
    auto out = take(groth16::prove(*be, req), "prove (pageable)");
    same &= out.pi == ref;
    if (i == 0) continue;
    gpu_s.push_back(gpu_seconds(out.timings));
    for (const auto& st : out.timings.steps) {
      if (st.name.rfind("key stream h2d", 0) == 0) {
        stream_ms = std::chrono::duration<double, std::milli>(st.elapsed).count();
      }
    }
  }
  const double h2d = double(be->h2d_bytes() - h2d0) / 2 / gib;
  const double part_s = median(gpu_s);
  std::printf("pageable %.0f GiB at 2^%d: GPU time per partition %.3f s (pinned %.3f s: %.2fx), key stream %.0f ms for "
              "%.1f GiB (%.1f GiB/s); proof %s\n",
              o.pageable_gib, log_n, part_s, pinned_s, pinned_s > 0 ? part_s / pinned_s : 0, stream_ms, h2d,
              stream_ms > 0 ? h2d / (stream_ms / 1e3) : 0, same ? "IDENTICAL" : "DIFFERS");
  std::printf("pageable log_n=%d budget_gib=%.0f partition_s=%.4f pinned_partition_s=%.4f slowdown=%.3f "
              "stream_gib_per_s=%.2f identical=%s\n",
              log_n, o.pageable_gib, part_s, pinned_s, pinned_s > 0 ? part_s / pinned_s : 0,
              stream_ms > 0 ? h2d / (stream_ms / 1e3) : 0, same ? "true" : "false");
}

// One backend per budget on one key: see the file comment.
void bench_budgets(int log_n, const options& o, pp::cuda::fixed_base_device& points) {
  using namespace pp;
  const bench_circuit b = make_bench_circuit(log_n, o, points);
  const r1cs::synthetic_circuit& c = b.c;
  const groth16::proving_key& pk = b.pk;
  const bool real = !o.random_key;
  auto t0 = clock_type::now();
  const cuda::compact_r1cs compact = take(cuda::make_compact_r1cs(c.cs), "make_compact_r1cs");
  const double t_compact = secs(t0);
  // The key's point tables pinned once for every budget (each backend adds a hold).
  t0 = clock_type::now();
  const uint64_t dev_before_pin = device_used_bytes();
  std::vector<cuda::pinned_range> pins;
  uint64_t key_point_bytes = 0;
  auto pin = [&](const auto& v) {
    if (v.empty()) return;
    const uint64_t b = v.size() * sizeof(v[0]);
    key_point_bytes += b;
    pins.push_back(take(cuda::pinned_range::pin(v.data(), b), "pin key table"));
  };
  pin(pk.h), pin(pk.l), pin(pk.a), pin(pk.b_g1), pin(pk.b_g2);
  const double t_pin = secs(t0);
  // What page-locking takes on the device (the driver's mappings of the pinned range): outside any
  // backend's region, so it is what "device memory taken" can exceed a budget by.
  const int64_t pin_device = int64_t(device_used_bytes()) - int64_t(dev_before_pin);
  std::printf("pinning %.2f GiB of key points took %.1f MiB of device memory (%.2f MiB per GiB pinned)\n",
              key_point_bytes / gib, double(pin_device) / 1048576.0,
              double(pin_device) / 1048576.0 / (key_point_bytes / gib));
  std::printf("result pin_device_mib_per_gib %.3f\n", double(pin_device) / 1048576.0 / (key_point_bytes / gib));
  std::printf("\n== budgets at 2^%d: %llu constraints, %llu variables; key points %.2f GiB, compact matrices "
              "%.3f GiB (%.1f s), pinned in %.1f s\n",
              log_n, (unsigned long long)c.cs.num_constraints(), (unsigned long long)c.cs.num_variables(),
              key_point_bytes / gib, compact.device_bytes() / gib, t_compact, t_pin);
  std::printf("result matrices_2_%d_gib %.3f\n", log_n, compact.device_bytes() / gib);

  const groth16::prove_request req = b.request(real);
  // --together K: K packed witnesses beside the batch's sums in each lane's staging.
  const uint64_t together_staging =
      o.together > 1
          ? cuda::together_staging_bytes(uint32_t(o.together), cuda::packed_layout_of(std::span<const ff::fr>(c.w)).bytes)
          : 0;
  std::optional<groth16::proof> reference;  // the unlimited budget's proof
  std::map<double, double> unlimited_s;  // cap -> the unlimited budget's GPU time per partition
  std::map<double, double> part_s_of;    // budget -> GPU time per partition (uncapped)
  bool kernels_held = false;  // an earlier backend's create() took the kernels' memory (driver_bytes)
  std::vector<std::pair<double, double>> runs;  // (budget, cap), each budget at every cap in turn
  for (const double b : o.budgets_gib) {
    for (const double cap : o.h2d_caps) runs.emplace_back(b, cap);
  }
  for (const auto& [b, cap] : runs) {
    const uint64_t before = device_used_bytes();
    cuda::cuda_backend_config cfg = budget_config(o, b, cap);
    cfg.staging_bytes = std::max(cfg.staging_bytes, together_staging);
    auto be = take(cuda::cuda_backend::create(cfg), "cuda_backend::create");
    // The process's memory for this budget: what this backend takes, plus the kernels' memory when an
    // earlier backend took it (this one's budget holds it all the same: cuda_backend.hpp).
    const uint64_t held = kernels_held ? be->driver_bytes() : 0;
    kernels_held = true;
    const std::string label = (b > 0 ? std::to_string(int(b)) + " GiB" : std::string("unlimited")) +
                              (cap > 0 ? " at " + std::to_string(int(cap)) + " GiB/s" : std::string());
    const std::string cap_json = cap > 0 ? std::to_string(cap) : "null";
    t0 = clock_type::now();
    if (status st = be->prepare(pk, c.cs, &compact); !st.ok()) {
      std::printf("budget %s at 2^%d: REFUSED: %s\n", label.c_str(), log_n, st.to_string().c_str());
      std::printf("budget_run log_n=%d budget_gib=%s h2d_cap_gib_s=%s refused=1\n", log_n,
                  b > 0 ? std::to_string(int(b)).c_str() : "null", cap_json.c_str());
      continue;
    }
    const double t_prepare = secs(t0);
    const auto fp = take(be->resident_footprint(pk, c.cs), "resident_footprint");
    std::printf("budget %s at 2^%d: region %.2f GiB (the driver holds %.1f MiB for the kernels, outside it), plan used "
                "%.2f GiB: %s; prepare %.1f s\n",
                label.c_str(), log_n, be->capacity_bytes() / gib, be->driver_bytes() / 1048576.0,
                be->used_bytes() / gib, fp.plan.c_str(), t_prepare);
    step_times times;
    std::vector<double> gpu_s, overlap;
    groth16::proof last{};
    bool same = true;
    const uint64_t h2d0 = be->h2d_bytes();
    for (int i = 0; i < o.runs + 1; ++i) {
      auto out = take(groth16::prove(*be, req), "prove");
      if (reference && !(out.pi == *reference)) same = false;
      last = out.pi;
      if (i == 0) continue;  // warm-up
      gpu_s.push_back(times.add_steps(out.timings) / 1e3);
      if (const double ov = copy_overlap(out.timings); ov >= 0) overlap.push_back(ov);
    }
    const double h2d_per = double(be->h2d_bytes() - h2d0) / (o.runs + 1);
    if (!reference) {
      reference = last;
      same = true;
    }
    for (const auto& k : times.order) std::printf("  %-48s %10.2f ms (median)\n", k.c_str(), median(times.ms[k]));
    const double part_s = median(gpu_s);
    if (b <= 0) unlimited_s[cap] = part_s;
    if (cap <= 0) part_s_of[b] = part_s;
    const double base_s = unlimited_s.count(cap) ? unlimited_s[cap] : 0;
    // Lanes phase: as many threads as the backend has lanes (with fewer workspaces than lanes, a
    // lane packs its witness while another holds the workspace); the steady budget runs a
    // 10-partition proof's worth, the others lanes_per_thread partitions per lane.
    const uint32_t threads = be->lanes();
    const bool steady = std::find(o.steady_gibs.begin(), o.steady_gibs.end(), b) != o.steady_gibs.end();
    const int total = steady ? o.steady_partitions : int(threads) * o.lanes_per_thread;
    const lanes_result lr = run_lanes(*be, req, threads, total, *reference);
    if (lr.differ != 0 || lr.failed != 0) same = false;
    const uint64_t peak = device_used_bytes() - before + held;
    const double ov = overlap.empty() ? -1 : median(overlap);
    std::printf("budget %s at 2^%d: GPU time per partition %.3f s (%.2fx unlimited), h2d %.2f GiB per partition, "
                "copies under kernels %.1f%%, device memory taken %.3f GiB (the kernels' included); %u lane(s) on %u "
                "workspace(s), "
                "%d partitions: %.3f s per partition, %.0f partitions/hour (steady %.0f), GPU busy %.1f%%, %d failed; "
                "proof %s the unlimited budget's\n",
                label.c_str(), log_n, part_s, base_s > 0 ? part_s / base_s : 1.0, h2d_per / gib,
                ov >= 0 ? 100 * ov : 0.0, peak / gib, threads, fp.lanes, total, lr.wall_s / total, lr.per_hour,
                lr.steady_per_hour, 100 * lr.busy, lr.failed, same ? "IDENTICAL to" : "DIFFERS FROM");
    std::printf("budget_run log_n=%d budget_gib=%s h2d_cap_gib_s=%s partition_s=%.4f partitions_per_hour=%.0f "
                "h2d_gib_per_partition=%.3f "
                "peak_vram_gib=%.3f identical=%s lanes=%u workspaces=%u plan_gib=%.3f gpu_busy=%.4f lanes_partitions=%d "
                "steady_partitions_per_hour=%.0f copy_overlap=%.4f\n",
                log_n, b > 0 ? std::to_string(int(b)).c_str() : "null", cap_json.c_str(), part_s, lr.per_hour,
                h2d_per / gib,
                peak / gib, same ? "true" : "false", threads, fp.lanes, be->used_bytes() / gib, lr.busy, total,
                lr.steady_per_hour, ov);
    if (steady && o.together > 1 && b > 0) {
      // The same partitions again, k a start_together: what sharing the streamed copies buys.
      const lanes_result tl = run_lanes(*be, req, threads, total, *reference, o.together);
      const bool tsame = tl.failed == 0 && tl.differ == 0;
      for (const auto& step : tl.steps.order) {
        std::printf("  together: %-58s %10.2f ms (median)\n", step.c_str(), median(tl.steps.ms.at(step)));
      }
      const uint64_t tpeak = device_used_bytes() - before + held;
      std::printf("budget %s at 2^%d, %d partitions together: %d partitions: %.3f s per partition, %.0f "
                  "partitions/hour (steady %.0f), GPU busy %.1f%%, h2d %.2f GiB per partition, %d failed; proofs %s "
                  "the unlimited budget's\n",
                  label.c_str(), log_n, o.together, total, tl.wall_s / total, tl.per_hour, tl.steady_per_hour,
                  100 * tl.busy, tl.h2d_per_partition / gib, tl.failed, tsame ? "IDENTICAL to" : "DIFFER FROM");
      std::printf("budget_together log_n=%d budget_gib=%d h2d_cap_gib_s=%s partitions_together=%d partition_s=%.4f "
                  "partitions_per_hour=%.0f steady_partitions_per_hour=%.0f h2d_gib_per_partition=%.3f "
                  "peak_vram_gib=%.3f identical=%s gpu_busy=%.4f lanes_partitions=%d\n",
                  log_n, int(b), cap_json.c_str(), o.together, tl.wall_s / total, tl.per_hour, tl.steady_per_hour,
                  tl.h2d_per_partition / gib, tpeak / gib, tsame ? "true" : "false", tl.busy, total);
    }
  }
  if (o.two_keys_gib > 0 && reference) bench_two_keys(log_n, o, pk, c, *reference, points);
  if (o.pageable_gib > 0 && reference) {
    pins.clear();  // the bench's holds: the backend's own pinning is off, so the key is pageable
    const double pinned_s = part_s_of.count(o.pageable_gib) ? part_s_of[o.pageable_gib] : 0;
    bench_pageable(log_n, o, pk, c, compact, *reference, pinned_s);
  }
  if (real && log_n <= o.cpu_check_max_log && reference) {
    groth16::cpu_backend cpu;
    groth16::prove_request cpu_req = req;
    cpu_req.options.self_verify = false;
    const auto want = take(groth16::prove(cpu, cpu_req), "cpu prove");
    std::printf("cpu_backend: the unlimited budget's proof %s the CPU proof\n",
                want.pi == *reference ? "is IDENTICAL to" : "DIFFERS FROM");
  }
}

// "B,B,..." as GiB values (0: unlimited).
std::vector<double> gib_list(const std::string& list) {
  return comma_list(list, [](const char* v) { return std::atof(v); });
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // partial results survive a timeout
  options o;
  std::vector<int> logs;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--snarkjs")) {
      o.basis = h_basis::odd_coset_lagrange;
    } else if (!std::strcmp(argv[i], "--lanes") && i + 1 < argc) {
      o.lanes = uint32_t(std::max(1, std::atoi(argv[++i])));
    } else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      o.runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--cpu-check-max-log") && i + 1 < argc) {
      o.cpu_check_max_log = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--h2d-gib-s") && i + 1 < argc) {
      o.h2d_caps = gib_list(argv[++i]);
    } else if (!std::strcmp(argv[i], "--vram-budgets-gib") && i + 1 < argc) {
      o.budgets_gib = gib_list(argv[++i]);
    } else if (!std::strcmp(argv[i], "--lanes-per-thread") && i + 1 < argc) {
      o.lanes_per_thread = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--steady-gib") && i + 1 < argc) {
      o.steady_gibs = gib_list(argv[++i]);
    } else if (!std::strcmp(argv[i], "--steady-partitions") && i + 1 < argc) {
      o.steady_partitions = std::max(2, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--two-keys-gib") && i + 1 < argc) {
      o.two_keys_gib = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--small-log") && i + 1 < argc) {
      o.small_log = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--pageable-gib") && i + 1 < argc) {
      o.pageable_gib = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--h-copies") && i + 1 < argc) {
      o.h_copies = uint32_t(std::max(1, std::atoi(argv[++i])));
    } else if (!std::strcmp(argv[i], "--together") && i + 1 < argc) {
      o.together = std::clamp(std::atoi(argv[++i]), 1, 8);
    } else if (!std::strcmp(argv[i], "--random-key")) {
      o.random_key = true;
    } else {
      logs.push_back(std::atoi(argv[i]));
    }
  }
  if (logs.empty()) logs = {20};
  auto points = take(pp::cuda::fixed_base_device::create(), "fixed_base_device::create");
  if (!o.budgets_gib.empty()) {
    for (int log_n : logs) bench_budgets(log_n, o, *points);
    return 0;
  }
  pp::cuda::cuda_backend_config cfg;
  cfg.vram_share = 0.85;  // the fixed-base multiplier's buffers live beside the region
  cfg.staging_bytes = uint64_t{1} << 30;
  cfg.lanes = o.lanes;
  cfg.h_copies = o.h_copies;
  auto be = take(pp::cuda::cuda_backend::create(cfg), "cuda_backend::create");
  std::printf("cuda_backend on device %d: region %.1f GiB, %u lanes\n", be->device(), be->capacity_bytes() / gib,
              be->lanes());
  for (int log_n : logs) bench(log_n, o, *be, *points);
  return 0;
}

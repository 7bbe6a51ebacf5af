// One Groth16 partition on the CUDA backend (src/cuda/cuda_backend.hpp) for the synthetic
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
//   cuda_prover_bench [--snarkjs] [--lanes L] [--runs R] [--random-key] [--cpu-check-max-log K]
//                     [--vram-budgets-gib B,...] log_n...
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_fail_fast.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/fixed_base_device.hpp"
#include "cuda/pinned_host.hpp"
#include "cuda/spmv_matrix.hpp"
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

void bench(int log_n, const options& o, pp::cuda::cuda_backend& be, pp::cuda::fixed_base_device& points) {
  using namespace pp;
  const uint64_t n = uint64_t{1} << log_n;
  const int runs = o.runs;
  const std::string tag = "2_" + std::to_string(log_n);
  auto t0 = clock_type::now();
  const r1cs::synthetic_circuit c =
      take(r1cs::make_synthetic(r1cs::synthetic_params::porep(r1cs::synthetic_params::porep_constraints(log_n), 42)), "make_synthetic");
  const double t_circuit = secs(t0);
  std::fprintf(stderr, "2^%d: circuit in %.1f s\n", log_n, t_circuit);
  t0 = clock_type::now();
  const bool real = !o.random_key;
  const groth16::proving_key pk =
      real ? take(groth16::setup_insecure(c.cs, o.basis, groth16::toxic_waste_from_seed_insecure(9), points),
                  "setup_insecure")
           : random_key(c.cs, o.basis, n);
  const double t_key = secs(t0);
  std::fprintf(stderr, "2^%d: key in %.1f s\n", log_n, t_key);
  if (pk.domain_size != n) {
    std::fprintf(stderr, "domain 2^%d expected, the key has %llu\n", log_n, (unsigned long long)pk.domain_size);
    std::exit(1);
  }
  t0 = clock_type::now();
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

  groth16::prove_request req;
  req.pk = &pk;
  req.cs = &c.cs;
  req.witness = c.w;
  req.rs = groth16::blinding{fr::from_uint(1234567), fr::from_uint(7654321)};
  req.options.self_verify = real;
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
    req.options.self_verify = false;
    const auto want = take(groth16::prove(cpu, req), "cpu prove");
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

// One backend per budget on one key: see the file comment.
void bench_budgets(int log_n, const options& o, pp::cuda::fixed_base_device& points) {
  using namespace pp;
  const uint64_t n = uint64_t{1} << log_n;
  auto t0 = clock_type::now();
  const r1cs::synthetic_circuit c = take(
      r1cs::make_synthetic(r1cs::synthetic_params::porep(r1cs::synthetic_params::porep_constraints(log_n), 42)),
      "make_synthetic");
  std::fprintf(stderr, "2^%d: circuit in %.1f s\n", log_n, secs(t0));
  t0 = clock_type::now();
  const bool real = !o.random_key;
  const groth16::proving_key pk =
      real ? take(groth16::setup_insecure(c.cs, o.basis, groth16::toxic_waste_from_seed_insecure(9), points),
                  "setup_insecure")
           : random_key(c.cs, o.basis, n);
  std::fprintf(stderr, "2^%d: key in %.1f s\n", log_n, secs(t0));
  t0 = clock_type::now();
  const cuda::compact_r1cs compact = take(cuda::make_compact_r1cs(c.cs), "make_compact_r1cs");
  const double t_compact = secs(t0);
  // The key's point tables pinned once for every budget (each backend adds a hold).
  t0 = clock_type::now();
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
  std::printf("\n== budgets at 2^%d: %llu constraints, %llu variables; key points %.2f GiB, compact matrices "
              "%.3f GiB (%.1f s), pinned in %.1f s\n",
              log_n, (unsigned long long)c.cs.num_constraints(), (unsigned long long)c.cs.num_variables(),
              key_point_bytes / gib, compact.device_bytes() / gib, t_compact, t_pin);
  std::printf("result matrices_2_%d_gib %.3f\n", log_n, compact.device_bytes() / gib);

  groth16::prove_request req;
  req.pk = &pk;
  req.cs = &c.cs;
  req.witness = c.w;
  req.rs = groth16::blinding{fr::from_uint(1234567), fr::from_uint(7654321)};
  req.options.self_verify = real;
  std::optional<groth16::proof> reference;  // the unlimited budget's proof
  double unlimited_s = 0;
  for (const double b : o.budgets_gib) {
    const uint64_t before = device_used_bytes();
    cuda::cuda_backend_config cfg;
    cfg.vram_share = 0.85;  // the fixed-base multiplier's buffers live beside the region
    cfg.staging_bytes = uint64_t{1} << 30;
    cfg.lanes = o.lanes;
    cfg.max_vram_bytes = b > 0 ? uint64_t(b * gib) : 0;
    auto be = take(cuda::cuda_backend::create(cfg), "cuda_backend::create");
    const std::string label = b > 0 ? std::to_string(int(b)) + " GiB" : "unlimited";
    t0 = clock_type::now();
    if (status st = be->prepare(pk, c.cs, &compact); !st.ok()) {
      std::printf("budget %s at 2^%d: REFUSED: %s\n", label.c_str(), log_n, st.to_string().c_str());
      std::printf("budget_run log_n=%d budget_gib=%s refused=1\n", log_n, b > 0 ? std::to_string(int(b)).c_str() : "null");
      continue;
    }
    const double t_prepare = secs(t0);
    const auto fp = take(be->resident_footprint(pk, c.cs), "resident_footprint");
    std::printf("budget %s at 2^%d: region %.2f GiB, plan used %.2f GiB: %s; prepare %.1f s\n", label.c_str(), log_n,
                be->capacity_bytes() / gib, be->used_bytes() / gib, fp.plan.c_str(), t_prepare);
    step_times times;
    std::vector<double> gpu_s;
    groth16::proof last{};
    bool same = true;
    const uint64_t h2d0 = be->h2d_bytes();
    for (int i = 0; i < o.runs + 1; ++i) {
      auto out = take(groth16::prove(*be, req), "prove");
      if (reference && !(out.pi == *reference)) same = false;
      last = out.pi;
      if (i == 0) continue;  // warm-up
      gpu_s.push_back(times.add_steps(out.timings) / 1e3);
    }
    const double h2d_per = double(be->h2d_bytes() - h2d0) / (o.runs + 1);
    if (!reference) {
      reference = last;
      same = true;
    }
    for (const auto& k : times.order) std::printf("  %-48s %10.2f ms (median)\n", k.c_str(), median(times.ms[k]));
    const double part_s = median(gpu_s);
    if (b <= 0) unlimited_s = part_s;
    // Lanes phase: as many threads as the plan has lanes, 3 partitions each.
    const uint32_t threads = fp.lanes;
    const int per_thread = 3;
    be->reset_activity();
    std::atomic<int> failures{0}, differ{0};
    const auto w0 = clock_type::now();
    std::vector<std::thread> pool;
    for (uint32_t t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (int j = 0; j < per_thread; ++j) {
          auto r = groth16::prove(*be, req);
          if (!r.ok()) {
            failures.fetch_add(1);
          } else if (!(r->pi == *reference)) {
            differ.fetch_add(1);
          }
        }
      });
    }
    for (auto& th : pool) th.join();
    const double wall = secs(w0);
    const auto act = be->gpu_activity();
    const int total = int(threads) * per_thread;
    if (differ.load() != 0 || failures.load() != 0) same = false;
    const uint64_t peak = device_used_bytes() - before;
    std::printf("budget %s at 2^%d: GPU time per partition %.3f s (%.2fx unlimited), h2d %.2f GiB per partition, "
                "device memory taken %.2f GiB; %u lane(s) x %d: %.3f s per partition, %.0f partitions/hour, GPU busy "
                "%.1f%%, %d failed; proof %s the unlimited budget's\n",
                label.c_str(), log_n, part_s, unlimited_s > 0 ? part_s / unlimited_s : 1.0, h2d_per / gib, peak / gib,
                threads, per_thread, wall / total, 3600.0 * total / wall, 100 * act.busy_fraction(), failures.load(),
                same ? "IDENTICAL to" : "DIFFERS FROM");
    std::printf("budget_run log_n=%d budget_gib=%s partition_s=%.4f partitions_per_hour=%.0f h2d_gib_per_partition=%.3f "
                "peak_vram_gib=%.3f identical=%s lanes=%u plan_gib=%.3f gpu_busy=%.4f\n",
                log_n, b > 0 ? std::to_string(int(b)).c_str() : "null", part_s, 3600.0 * total / wall, h2d_per / gib,
                peak / gib, same ? "true" : "false", threads, be->used_bytes() / gib, act.busy_fraction());
  }
  if (real && log_n <= o.cpu_check_max_log && reference) {
    groth16::cpu_backend cpu;
    req.options.self_verify = false;
    const auto want = take(groth16::prove(cpu, req), "cpu prove");
    std::printf("cpu_backend: the unlimited budget's proof %s the CPU proof\n",
                want.pi == *reference ? "is IDENTICAL to" : "DIFFERS FROM");
  }
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
    } else if (!std::strcmp(argv[i], "--vram-budgets-gib") && i + 1 < argc) {
      const std::string list = argv[++i];
      for (size_t at = 0; at <= list.size();) {
        const size_t comma = std::min(list.find(',', at), list.size());
        o.budgets_gib.push_back(std::atof(list.substr(at, comma - at).c_str()));
        at = comma + 1;
      }
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
  auto be = take(pp::cuda::cuda_backend::create(cfg), "cuda_backend::create");
  std::printf("cuda_backend on device %d: region %.1f GiB, %u lanes\n", be->device(), be->capacity_bytes() / gib,
              be->lanes());
  for (int log_n : logs) bench(log_n, o, *be, *points);
  return 0;
}

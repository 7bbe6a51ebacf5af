// One Groth16 partition on the CUDA backend (src/cuda/cuda_backend.hpp) for synthetic PoRep-shaped
// circuits (make_synthetic: ~2.4/1.0/2.2 non-zeros per row, witness ~90% 0/1, aux ~ constraints):
// per-step GPU time from CUDA events (witness upload, SpMV, H scalars, each MSM), start()/finish()
// wall time, median of the warm runs. Keys: up to --setup-max-log a real insecure setup (the proof
// verifies and is compared with cpu_backend once); above, random key points for timing only (the
// proof is not valid; the output says so). Usage:
//   cuda_prover_bench [--snarkjs] [--setup-max-log K] [--runs R] log_n...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cuda/cuda_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "msm_points.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using pp::ff::fr;
using pp::groth16::h_basis;
using clock_type = std::chrono::steady_clock;

double secs(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

template <class R>
auto take(R&& r, const char* what) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s failed: %s\n", what, r.error().to_string().c_str());
    std::exit(1);
  }
  return std::move(r).value();
}

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

void bench(int log_n, h_basis basis, int setup_max_log, int runs, pp::cuda::cuda_backend& be) {
  using namespace pp;
  const uint64_t n = uint64_t{1} << log_n;
  r1cs::synthetic_params sp;
  sp.num_public = 8;
  sp.num_constraints = n - sp.num_public - 1 - 16;  // QAP rows just under 2^log_n
  sp.num_aux = sp.num_constraints;
  sp.seed = 42;
  auto t0 = clock_type::now();
  const r1cs::synthetic_circuit c = take(r1cs::make_synthetic(sp), "make_synthetic");
  const double t_circuit = secs(t0);
  const bool real = log_n <= setup_max_log;
  t0 = clock_type::now();
  const groth16::proving_key pk =
      real ? take(groth16::setup_insecure(c.cs, basis, groth16::toxic_waste_from_seed_insecure(9)), "setup_insecure")
           : random_key(c.cs, basis, n);
  const double t_key = secs(t0);
  const auto fp = take(cuda::cuda_backend::footprint(pk, c.cs), "footprint");
  std::printf("\n== 2^%d (%s basis): %llu constraints, %llu variables; circuit %.1f s, %s %.1f s\n", log_n,
              basis == h_basis::monomial ? "monomial/bellperson" : "odd-coset/snarkjs",
              (unsigned long long)c.cs.num_constraints(), (unsigned long long)c.cs.num_variables(), t_circuit,
              real ? "insecure setup (valid proofs)" : "RANDOM KEY POINTS (timing only, proofs NOT valid)", t_key);
  std::printf("device memory: points %.2f GiB, matrices %.3f GiB, tables %.3f GiB, partition %.2f GiB (MSM "
              "workspace %.2f GiB)\n",
              fp.points_bytes / 1073741824.0, fp.matrices_bytes / 1073741824.0, fp.tables_bytes / 1073741824.0,
              fp.partition_bytes / 1073741824.0, fp.msm_workspace_bytes / 1073741824.0);
  t0 = clock_type::now();
  if (status st = be.prepare(pk, c.cs); !st.ok()) {
    std::fprintf(stderr, "prepare: %s\n", st.to_string().c_str());
    std::exit(1);
  }
  std::printf("key upload (points, matrices, tables): %.2f s\n", secs(t0));

  groth16::prove_request req;
  req.pk = &pk;
  req.cs = &c.cs;
  req.witness = c.w;
  req.rs = groth16::blinding{fr::from_uint(1234567), fr::from_uint(7654321)};
  req.options.self_verify = real;
  std::map<std::string, std::vector<double>> ms;  // step -> per-run milliseconds
  std::vector<std::string> order;
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
    double gpu = 0;
    for (const auto& s : out.timings.steps) {
      const double v = std::chrono::duration<double, std::milli>(s.elapsed).count();
      if (!ms.count(s.name)) order.push_back(s.name);
      ms[s.name].push_back(v);
      if (s.name.rfind("gpu ", 0) == 0) gpu += v;
    }
    for (const char* k : {"= gpu total (events)", "= start() wall", "= finish() wall"}) {
      if (!ms.count(k)) order.push_back(k);
    }
    ms["= gpu total (events)"].push_back(gpu);
    ms["= start() wall"].push_back(t_start);
    ms["= finish() wall"].push_back(t_finish);
  }
  std::printf("%-26s %10s %10s %10s   (ms over %d warm runs)\n", "step", "median", "min", "max", runs);
  for (const auto& k : order) {
    auto v = ms[k];
    std::sort(v.begin(), v.end());
    std::printf("%-26s %10.2f %10.2f %10.2f\n", k.c_str(), v[v.size() / 2], v.front(), v.back());
  }
  if (real) {
    groth16::cpu_backend cpu;
    t0 = clock_type::now();
    req.options.self_verify = false;
    const auto want = take(groth16::prove(cpu, req), "cpu prove");
    std::printf("cpu_backend on this host: %.2f s; CUDA proof %s the CPU proof and verified (self-verify)\n",
                secs(t0), want.pi == last ? "IDENTICAL to" : "DIFFERS FROM");
  }
  be.clear_keys();
}

}  // namespace

int main(int argc, char** argv) {
  h_basis basis = h_basis::monomial;
  int setup_max_log = 20, runs = 3;
  std::vector<int> logs;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--snarkjs")) {
      basis = h_basis::odd_coset_lagrange;
    } else if (!std::strcmp(argv[i], "--setup-max-log") && i + 1 < argc) {
      setup_max_log = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      logs.push_back(std::atoi(argv[i]));
    }
  }
  if (logs.empty()) logs = {20};
  pp::cuda::cuda_backend_config cfg;
  cfg.vram_share = 0.9;
  cfg.staging_bytes = uint64_t{1} << 30;
  auto be = take(pp::cuda::cuda_backend::create(cfg), "cuda_backend::create");
  std::printf("cuda_backend on device %d: region %.1f GiB\n", be->device(), be->capacity_bytes() / 1073741824.0);
  for (int log_n : logs) bench(log_n, basis, setup_max_log, runs, *be);
  return 0;
}

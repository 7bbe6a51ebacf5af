// cuda_backend (src/cuda/prover/cuda_backend.hpp) against cpu_backend: for both H bases and constraint
// counts 1, 2, 3, around powers of two (of the constraints and of the QAP rows) and a few thousand,
// plus a PoRep-like 2^16 circuit, the CUDA proof with fixed (r, s) is identical to the CPU proof and
// verifies. Also: key cache reuse, footprint, argument errors, health, and several partitions in
// flight on the lanes at once (same proofs, GPU spans and activity recorded), and keys streamed
// under tiny VRAM budgets (every table or some streamed, many chunks, several lanes): identical
// proofs again; a budget below the least plan is refused naming it. Exits 77 without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "backend_test_config.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "cuda/prover/kernel_warmup.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"
#include "support/groth16_fixtures.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using ff::fr;
using groth16::h_basis;

[[maybe_unused]] ::testing::Environment* const warm_env = ::testing::AddGlobalTestEnvironment(new warm_kernels);

const cuda_backend_config& gpu_config() {
  static const cuda_backend_config cfg = backend_test_config(16, 128, 3);
  return cfg;
}

cuda_backend& gpu() {
  static std::unique_ptr<cuda_backend> be = [] {
    auto r = cuda_backend::create(gpu_config());
    if (!r.ok()) {
      std::fprintf(stderr, "cuda_backend::create: %s\n", r.error().to_string().c_str());
      std::abort();
    }
    return std::move(r).value();
  }();
  return *be;
}

// A synthetic circuit and its insecure key (support/groth16_fixtures.hpp).
using instance = pp::test::keyed_circuit;
using pp::test::make_keyed_circuit;

std::unique_ptr<instance> make_instance(uint64_t m, uint64_t num_public, uint64_t num_aux, h_basis basis,
                                        uint64_t seed) {
  r1cs::synthetic_params sp;
  sp.num_constraints = m;
  sp.num_public = num_public;
  sp.num_aux = num_aux;
  sp.seed = seed;
  return make_keyed_circuit(sp, basis, seed * 7 + 1);
}

// Regions are whole granules (device_memory.hpp).
constexpr uint64_t granule = device_memory::granularity;
uint64_t round_up_to_granule(uint64_t bytes) { return (bytes + granule - 1) / granule * granule; }

groth16::blinding fixed_rs(uint64_t seed) {
  uint64_t st = seed * 0x9e3779b97f4a7c15ull + 3;
  return {r1cs::random_fr(st), r1cs::random_fr(st)};
}

// A request for in's circuit and witness with fixed_rs(rs_seed).
groth16::prove_request request_for(const instance& in, uint64_t rs_seed) {
  groth16::prove_request req;
  req.pk = &in.pk;
  req.cs = &in.circuit.cs;
  req.witness = in.circuit.w;
  req.rs = fixed_rs(rs_seed);
  return req;
}

// The same request proved by two threads at once (two lanes sharing the backend).
std::vector<result<groth16::prove_output>> prove_on_two_threads(groth16::backend& be,
                                                                const groth16::prove_request& req) {
  std::vector<result<groth16::prove_output>> got(2, internal_error("not run"));
  std::vector<std::thread> pool;
  for (int t = 0; t < 2; ++t) pool.emplace_back([&, t] { got[t] = groth16::prove(be, req); });
  for (auto& th : pool) th.join();
  return got;
}

// Proves with both backends and the same (r, s): identical proofs, both verify.
void expect_same_proof(const instance& in, uint64_t seed, const char* what) {
  SCOPED_TRACE(what);
  const groth16::prove_request req = request_for(in, seed);
  groth16::cpu_backend cpu;
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  const auto got = groth16::prove(gpu(), req);  // self_verify on (the default)
  ASSERT_THAT(got, IsOk());
  EXPECT_TRUE(got->pi.a == want->pi.a) << "pi_A differs";
  EXPECT_TRUE(got->pi.b == want->pi.b) << "pi_B differs";
  EXPECT_TRUE(got->pi.c == want->pi.c) << "pi_C differs";
  const auto inputs = std::span<const fr>(in.circuit.w).subspan(1, in.circuit.cs.num_public());
  const status v = groth16::verify(in.pk.vk, inputs, got->pi);
  EXPECT_THAT(v, IsOk());
  EXPECT_TRUE(gpu().healthy()) << gpu().last_error();
}

class CudaBackendBasis : public testing::TestWithParam<h_basis> {};

TEST_P(CudaBackendBasis, SmallCircuitsMatchCpu) {
  const h_basis basis = GetParam();
  // Constraint counts 1, 2, 3, 2^k - 1, 2^k, 2^k + 1; with 2 public inputs the QAP rows are m + 3, so
  // 61..65 also put the rows at 2^6 - 1, 2^6, 2^6 + 1.
  const uint64_t counts[] = {1, 2, 3, 7, 8, 9, 61, 62, 63, 64, 65, 255, 256, 257, 3000};
  uint64_t seed = basis == h_basis::monomial ? 100 : 200;
  for (uint64_t m : counts) {
    auto in = make_instance(m, 2, m + 3, basis, ++seed);
    ASSERT_NE(in, nullptr);
    expect_same_proof(*in, seed, ("m = " + std::to_string(m)).c_str());
    gpu().clear_keys();  // the next instance may reuse these addresses
  }
}

TEST_P(CudaBackendBasis, NoPublicInputsAndReusedKey) {
  const h_basis basis = GetParam();
  auto in = make_instance(100, 0, 120, basis, 7);
  ASSERT_NE(in, nullptr);
  expect_same_proof(*in, 1, "first proof (uploads the key)");
  const uint64_t used = gpu().used_bytes();
  expect_same_proof(*in, 2, "second proof (resident key)");
  EXPECT_EQ(gpu().used_bytes(), used) << "the resident key was uploaded again";
  const auto fp = cuda_backend::footprint(in->pk, in->circuit.cs, gpu_config());
  ASSERT_THAT(fp, IsOk());
  EXPECT_EQ(fp->total_bytes(), used);
  EXPECT_GT(fp->msm_workspace_bytes, 0u);
  EXPECT_EQ(fp->lanes, 3u);
  gpu().clear_keys();
}

// Several threads prove at once (more threads than lanes, two keys): every proof equals the CPU's
// with the same (r, s), the lanes' GPU intervals come back as spans, the partitions' kernels take
// turns (no two partitions' compute intervals overlap: compute_turn.hpp), and the activity counts them.
TEST_P(CudaBackendBasis, ConcurrentPartitionsOnLanes) {
  const h_basis basis = GetParam();
  const uint64_t seed0 = pp::test::test_seed();
  auto in1 = make_instance(3000, 3, 3100, basis, seed0 % 1000 + 1);
  auto in2 = make_instance(1000, 1, 1500, basis, seed0 % 1000 + 2);
  ASSERT_NE(in1, nullptr);
  ASSERT_NE(in2, nullptr);
  gpu().reset_activity();
  constexpr int threads = 5, per_thread = 3;
  struct outcome {
    const instance* in;
    groth16::blinding rs;
    result<groth16::prove_output> got = internal_error("not run");
  };
  std::vector<outcome> out;
  for (int i = 0; i < threads * per_thread; ++i) out.push_back({i % 2 ? in1.get() : in2.get(), fixed_rs(seed0 + i)});
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int j = 0; j < per_thread; ++j) {
        outcome& o = out[t * per_thread + j];
        groth16::prove_request req;
        req.pk = &o.in->pk;
        req.cs = &o.in->circuit.cs;
        req.witness = o.in->circuit.w;
        req.rs = o.rs;
        o.got = groth16::prove(gpu(), req);
      }
    });
  }
  for (auto& th : pool) th.join();
  groth16::cpu_backend cpu;
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::chrono::steady_clock::time_point>> computes;
  for (const outcome& o : out) {
    ASSERT_THAT(o.got, IsOk());
    groth16::prove_request req;
    req.pk = &o.in->pk;
    req.cs = &o.in->circuit.cs;
    req.witness = o.in->circuit.w;
    req.rs = o.rs;
    const auto want = groth16::prove(cpu, req);
    ASSERT_THAT(want, IsOk());
    EXPECT_TRUE(o.got->pi.a == want->pi.a && o.got->pi.b == want->pi.b && o.got->pi.c == want->pi.c);
    // Upload on a copy track, then the compute steps in order, each inside the partition.
    const auto& spans = o.got->timings.spans;
    ASSERT_EQ(spans.size(), 8u);
    EXPECT_EQ(spans[0].name, "upload");
    EXPECT_NE(spans[0].track.find("/copy"), std::string::npos);
    for (size_t i = 1; i < spans.size(); ++i) {
      EXPECT_NE(spans[i].track.find("/compute"), std::string::npos);
      EXPECT_LE(spans[i].begin, spans[i].end);
      if (i > 1) {
        EXPECT_LE(spans[i - 1].end, spans[i].begin + std::chrono::microseconds(1));
      }
    }
    EXPECT_LE(spans[0].end, spans[1].begin + std::chrono::microseconds(1)) << "compute began before the upload ended";
    computes.emplace_back(spans[1].begin, spans.back().end);
  }
  // The spans come from float milliseconds since the backend's origin event: a few microseconds of
  // rounding at the times a test process reaches.
  std::sort(computes.begin(), computes.end());
  for (size_t i = 1; i < computes.size(); ++i) {
    EXPECT_LE(computes[i - 1].second, computes[i].first + std::chrono::microseconds(50))
        << "partition " << i << "'s kernels began before the previous partition's ended";
  }
  const auto act = gpu().gpu_activity();
  EXPECT_EQ(act.partitions, uint64_t{threads * per_thread});
  EXPECT_GT(act.busy_ms, 0);
  EXPECT_LE(act.busy_ms, act.span_ms * 1.0001);
  std::printf("activity: %llu partitions, busy %.2f of %.2f ms (%.1f%%)\n", (unsigned long long)act.partitions,
              act.busy_ms, act.span_ms, 100 * act.busy_fraction());
  EXPECT_TRUE(gpu().healthy()) << gpu().last_error();
  gpu().clear_keys();
}

TEST_P(CudaBackendBasis, PoRepLike2e16) {
  const h_basis basis = GetParam();
  const uint64_t m = (uint64_t{1} << 16) - 8;  // 2^16 QAP rows with 4 public inputs
  const auto t0 = std::chrono::steady_clock::now();
  auto in = make_instance(m, 4, m, basis, 11);
  ASSERT_NE(in, nullptr);
  std::printf("2^16 %s: circuit + insecure setup %.1f s\n", basis == h_basis::monomial ? "monomial" : "snarkjs",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  expect_same_proof(*in, 5, "2^16");
  gpu().clear_keys();
}

INSTANTIATE_TEST_SUITE_P(Bases, CudaBackendBasis, testing::Values(h_basis::odd_coset_lagrange, h_basis::monomial),
                         [](const testing::TestParamInfo<h_basis>& i) {
                           return std::string(i.param == h_basis::monomial ? "monomial" : "snarkjs");
                         });

// A region that holds either of two keys with its full plan but not both: the second key is
// planned beside the first (a guest in its workspaces) or, when even that does not fit, the
// region is planned again once for both; alternating A, B, A, B, A then re-plans at most once and
// never after the second round (no thrash), every proof equal to the CPU's. A key larger than the
// whole region is planned in it streamed (the least recently used keys dropped) and proves the
// CPU's proof too (the refusal below the least budget: StreamedKeysUnderTinyBudgetsMatchCpu).
TEST(CudaBackend, KeysShareTheRegionWithoutThrash) {
  auto a = make_instance(3000, 2, 3100, h_basis::monomial, 21);
  auto b = make_instance(2900, 3, 3000, h_basis::odd_coset_lagrange, 22);
  auto big = make_instance(40000, 2, 41000, h_basis::monomial, 23);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(big, nullptr);
  cuda_backend_config cfg = gpu_config();
  cfg.lanes = 2;
  const auto fa = cuda_backend::footprint(a->pk, a->circuit.cs, cfg);
  const auto fb = cuda_backend::footprint(b->pk, b->circuit.cs, cfg);
  const auto fbig = cuda_backend::footprint(big->pk, big->circuit.cs, cfg);
  ASSERT_TRUE(fa.ok() && fb.ok() && fbig.ok());
  const uint64_t larger = std::max(fa->total_bytes(), fb->total_bytes());
  cfg.max_vram_bytes = round_up_to_granule(larger) + granule + pin_reserve_bytes(cfg);
  const uint64_t region = cfg.max_vram_bytes - pin_reserve_bytes(cfg);
  std::printf("keys %llu and %llu bytes, region %llu, big key %llu\n", (unsigned long long)fa->total_bytes(),
              (unsigned long long)fb->total_bytes(), (unsigned long long)region,
              (unsigned long long)fbig->total_bytes());
  ASSERT_GT(fa->total_bytes() + fb->total_bytes(), region) << "both keys fit: the test shows nothing";
  ASSERT_GT(fbig->total_bytes(), region);
  auto be = cuda_backend::create(cfg);
  ASSERT_THAT(be, IsOk());
  groth16::cpu_backend cpu;
  int round = 0;
  bool replanned_for_b = false;
  for (const instance* in : {a.get(), b.get(), a.get(), b.get(), a.get()}) {
    const groth16::prove_request req = request_for(*in, 100 + round++);
    const auto want = groth16::prove(cpu, req);
    const auto got = groth16::prove(**be, req);
    ASSERT_TRUE(want.ok() && got.ok()) << (got.ok() ? "" : got.error().to_string());
    EXPECT_TRUE(got->pi == want->pi);
    bool evicted = false, uploaded = false;
    for (const auto& st : got->timings.steps) {
      evicted |= st.name.rfind("key eviction", 0) == 0;
      uploaded |= st.name == "key upload";
    }
    if (round == 2) replanned_for_b = evicted;
    EXPECT_TRUE(!evicted || round == 2) << "round " << round << ": the keys evict each other";
    // A is placed again once after a re-plan; nothing is uploaded from round 4 on.
    EXPECT_EQ(uploaded, round <= 2 || (round == 3 && replanned_for_b)) << "round " << round;
  }
  EXPECT_EQ((*be)->replans(), replanned_for_b ? 1u : 0u);
  const auto fpb = (*be)->resident_footprint(b->pk, b->circuit.cs);
  const auto fpa = (*be)->resident_footprint(a->pk, a->circuit.cs);
  ASSERT_TRUE(fpa.ok() && fpb.ok());
  std::printf("A: %s\nB: %s\nregion used %llu of %llu bytes, %s\n", fpa->plan.c_str(), fpb->plan.c_str(),
              (unsigned long long)(*be)->used_bytes(), (unsigned long long)(*be)->capacity_bytes(),
              replanned_for_b ? "planned again for B" : "B beside A");
  EXPECT_NE(fpa->shared_workspaces, fpb->shared_workspaces) << "one key hosts the workspaces";
  EXPECT_LE((*be)->used_bytes(), (*be)->capacity_bytes());
  const groth16::prove_request req = request_for(*big, 200);
  const auto want = groth16::prove(cpu, req);
  const auto got = groth16::prove(**be, req);
  ASSERT_TRUE(want.ok() && got.ok()) << (got.ok() ? "" : got.error().to_string());
  EXPECT_TRUE(got->pi == want->pi);
  const auto fp = (*be)->resident_footprint(big->pk, big->circuit.cs);
  ASSERT_THAT(fp, IsOk());
  EXPECT_GT(fp->streamed_bytes, 0u) << fp->plan;
  EXPECT_LE((*be)->used_bytes(), (*be)->capacity_bytes());
  // After the big key, A and B again: planned with it or again without it, re-placed at their
  // planned offsets; from the second round of the two on, nothing is evicted or uploaded.
  const uint64_t replans_before = (*be)->replans();
  round = 0;
  for (const instance* in : {a.get(), b.get(), a.get(), b.get(), a.get()}) {
    groth16::prove_request r;
    r.pk = &in->pk;
    r.cs = &in->circuit.cs;
    r.witness = in->circuit.w;
    r.rs = fixed_rs(300 + round++);
    const auto w = groth16::prove(cpu, r);
    const auto g = groth16::prove(**be, r);
    ASSERT_TRUE(w.ok() && g.ok()) << (g.ok() ? "" : g.error().to_string());
    EXPECT_TRUE(g->pi == w->pi) << "round " << round << " after the big key";
    bool evicted = false, uploaded = false;
    for (const auto& st : g->timings.steps) {
      evicted |= st.name.rfind("key eviction", 0) == 0;
      uploaded |= st.name == "key upload";
    }
    if (round >= 4) {
      EXPECT_FALSE(evicted || uploaded) << "round " << round << " after the big key";
    }
  }
  EXPECT_LE((*be)->replans() - replans_before, 2u);
  std::printf("after the big key: %llu re-plan(s) for A and B\n",
              (unsigned long long)((*be)->replans() - replans_before));
  EXPECT_TRUE((*be)->healthy());
}

// gpu_config() with two lanes and MSM chunks of at most max_chunk_points, for keys streamed under
// small budgets.
cuda_backend_config streaming_config(uint32_t max_chunk_points) {
  cuda_backend_config cfg = gpu_config();
  cfg.lanes = 2;
  cfg.max_chunk_points = max_chunk_points;
  return cfg;
}

// The least budget plan_key names in its refusal ("... at least N bytes ...").
uint64_t least_budget(const instance& in, cuda_backend_config cfg) {
  cfg.max_vram_bytes = 1;
  const auto fp = cuda_backend::footprint(in.pk, in.circuit.cs, cfg);
  EXPECT_THAT(fp, Not(IsOk()));
  if (fp.ok()) return 0;
  EXPECT_EQ(fp.error().code(), status_code::resource_exhausted);
  const std::string& m = fp.error().message();
  const size_t at = m.find("at least ");
  EXPECT_NE(at, std::string::npos) << m;
  return at == std::string::npos ? 0 : std::stoull(m.substr(at + 9));
}

// PoRep-shaped keys (filtered A / B in the bellperson layout, and the snarkjs layout) proved on
// backends whose region is just the all-streamed minimum, a little more (some tables resident), and
// enough for two lanes of the streaming plan, with chunks of 2^10 points: every proof equals the
// CPU's with the same (r, s) and verifies; the copies show up as h2d bytes and a copy-track span.
TEST(CudaBackend, StreamedKeysUnderTinyBudgetsMatchCpu) {
  const uint64_t seed0 = pp::test::test_seed();
  for (const h_basis basis : {h_basis::monomial, h_basis::odd_coset_lagrange}) {
    SCOPED_TRACE(basis == h_basis::monomial ? "monomial" : "snarkjs");
    const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(60000, seed0 % 1000 + 5), basis, seed0 + 1);
    ASSERT_NE(inst, nullptr);
    const instance& in = *inst;
    cuda_backend_config cfg = streaming_config(1024);
    const uint64_t least = least_budget(in, cfg);
    ASSERT_GT(least, 0u);
    const auto full = cuda_backend::footprint(in.pk, in.circuit.cs, gpu_config());
    ASSERT_THAT(full, IsOk());
    std::printf("least budget %llu bytes; unlimited plan %llu bytes\n", (unsigned long long)least,
                (unsigned long long)full->total_bytes());
    const groth16::prove_request req = request_for(in, seed0);
    groth16::cpu_backend cpu;
    const auto want = groth16::prove(cpu, req);
    ASSERT_THAT(want, IsOk());
    const uint64_t least_region = round_up_to_granule(least);
    for (const uint64_t region : {least_region, least_region + granule, least_region + 4 * granule}) {
      SCOPED_TRACE("region " + std::to_string(region));
      cfg.max_vram_bytes = region;
      auto be = cuda_backend::create(cfg);
      ASSERT_THAT(be, IsOk());
      ASSERT_TRUE((*be)->prepare(in.pk, in.circuit.cs).ok());
      const auto fp = (*be)->resident_footprint(in.pk, in.circuit.cs);
      ASSERT_THAT(fp, IsOk());
      std::printf("region %llu: %s\n", (unsigned long long)region, fp->plan.c_str());
      EXPECT_GT(fp->streamed_bytes, 0u) << "nothing streamed: the test shows nothing";
      EXPECT_LE((*be)->used_bytes(), region);
      // Two threads at once when the plan has two lanes.
      for (const auto& g : prove_on_two_threads(**be, req)) {
        ASSERT_THAT(g, IsOk());
        EXPECT_TRUE(g->pi == want->pi) << "streamed proof differs from the CPU proof";
        bool copy_span = false;
        for (const auto& sp : g->timings.spans) copy_span |= sp.name == "key stream h2d";
        EXPECT_TRUE(copy_span);
      }
      EXPECT_GE((*be)->h2d_bytes(), 2 * fp->streamed_bytes);
      EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
    }
    // One granule below the least: refused up front, naming the least, the backend healthy.
    if (least_region > granule) {
      cfg.max_vram_bytes = least_region - granule;
      auto be = cuda_backend::create(cfg);
      ASSERT_THAT(be, IsOk());
      const auto r = (*be)->start(req);
      ASSERT_THAT(r, StatusIs(status_code::failed_precondition));
      EXPECT_NE(r.error().message().find("at least " + std::to_string(least)), std::string::npos)
          << r.error().message();
      EXPECT_TRUE((*be)->healthy());
    }
  }
}

// What the process takes on the device while a budget backend proves a streamed key (cudaMemGetInfo
// before create and after the proofs) stays inside the budget: the region, the pinned mappings'
// reserve and what create()'s warm-up measured; a second warm-up finds nothing left to take.
TEST(CudaBackend, DeviceMemoryStaysInsideTheBudget) {
  const uint64_t seed0 = pp::test::test_seed();
  const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(60000, seed0 % 1000 + 13), h_basis::monomial, seed0);
  ASSERT_NE(inst, nullptr);
  const instance& in = *inst;
  cuda_backend_config cfg = streaming_config(1024);
  const uint64_t least = least_budget(in, cfg);
  ASSERT_GT(least, 0u);
  cfg.max_vram_bytes = round_up_to_granule(least) + granule;
  const auto used = [] {
    size_t free_b = 0, total_b = 0;
    EXPECT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
    return uint64_t(total_b - free_b);
  };
  const uint64_t before = used();
  auto be = cuda_backend::create(cfg);
  ASSERT_THAT(be, IsOk());
  EXPECT_LE((*be)->capacity_bytes() + pin_reserve_bytes(cfg) + (*be)->driver_bytes(), cfg.max_vram_bytes);
  groth16::cpu_backend cpu;
  const groth16::prove_request req = request_for(in, seed0 + 7);
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  for (const auto& g : prove_on_two_threads(**be, req)) {
    ASSERT_THAT(g, IsOk());
    EXPECT_TRUE(g->pi == want->pi);
  }
  const auto fp = (*be)->resident_footprint(in.pk, in.circuit.cs);
  ASSERT_THAT(fp, IsOk());
  EXPECT_GT(fp->streamed_bytes, 0u) << fp->plan;
  const uint64_t taken = used() - before;
  std::printf("budget %llu bytes: taken %llu (region %llu, driver at create %llu)\n",
              (unsigned long long)cfg.max_vram_bytes, (unsigned long long)taken,
              (unsigned long long)(*be)->capacity_bytes(), (unsigned long long)(*be)->driver_bytes());
  EXPECT_LE(taken, cfg.max_vram_bytes);
  const auto again = warm_up_kernels(0);
  ASSERT_THAT(again, IsOk());
  EXPECT_LT(*again, granule) << "the kernels' memory was not kept after their first launches";
}

// Streaming from pageable memory (a host that cannot pin, or a key beyond max_pinned_bytes) proves
// the CPU's proof too; the region plus the pinned mappings' reserve stay inside the budget, and
// nothing beyond max_pinned_bytes is pinned.
TEST(CudaBackend, PageableStreamingMatchesCpu) {
  const uint64_t seed0 = pp::test::test_seed();
  const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(60000, seed0 % 1000 + 9), h_basis::monomial, seed0);
  ASSERT_NE(inst, nullptr);
  const instance& in = *inst;
  const groth16::prove_request req = request_for(in, seed0 + 4);
  groth16::cpu_backend cpu;
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  for (const bool pin_streamed : {true, false}) {
    SCOPED_TRACE(pin_streamed ? "max_pinned_bytes 4096" : "pin_streamed false");
    cuda_backend_config cfg = gpu_config();
    cfg.lanes = 1;
    cfg.max_chunk_points = 1024;
    cfg.pin_streamed = pin_streamed;
    cfg.max_pinned_bytes = 4096;  // less than any table: nothing is pinned
    const uint64_t least = least_budget(in, cfg);
    ASSERT_GT(least, 0u);
    cfg.max_vram_bytes = round_up_to_granule(least);
    auto be = cuda_backend::create(cfg);
    ASSERT_THAT(be, IsOk());
    EXPECT_EQ(pin_reserve_bytes(cfg), granule);
    EXPECT_LE((*be)->capacity_bytes() + pin_reserve_bytes(cfg), cfg.max_vram_bytes);
    const auto got = groth16::prove(**be, req);
    ASSERT_THAT(got, IsOk());
    EXPECT_TRUE(got->pi == want->pi) << "proof streamed from pageable memory differs from the CPU proof";
    const auto fp = (*be)->resident_footprint(in.pk, in.circuit.cs);
    ASSERT_THAT(fp, IsOk());
    EXPECT_GT(fp->streamed_bytes, 0u) << fp->plan;
    EXPECT_EQ((*be)->pinned_bytes(), 0u);
    EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
  }
}

// Precomputed copies of H's points (cuda_backend_config::h_copies) for a key alone on its backend
// with every table resident: the proof is the CPU's for 2, 4 and more copies than H's MSM has digits
// (clamped), H's MSM in one pass and in chunks of 1024 points; the plan names the copies it keeps.
TEST(CudaBackend, HCopiesMatchCpu) {
  const uint64_t seed0 = pp::test::test_seed();
  const auto small = make_instance(3000, 2, 3003, h_basis::monomial, seed0 % 1000 + 300);
  const auto porep =
      make_keyed_circuit(r1cs::synthetic_params::porep(60000, seed0 % 1000 + 19), h_basis::monomial, seed0 + 1);
  ASSERT_TRUE(small != nullptr && porep != nullptr);
  for (const instance* in : {small.get(), porep.get()}) {
    const groth16::prove_request req = request_for(*in, seed0 + 5);
    groth16::cpu_backend cpu;
    const auto want = groth16::prove(cpu, req);
    ASSERT_THAT(want, IsOk());
    for (const uint32_t copies : {2u, 4u, 24u}) {
      for (const uint64_t chunk : {uint64_t{0}, uint64_t{1024}}) {
        SCOPED_TRACE("m = " + std::to_string(in->circuit.cs.num_constraints()) + ", " + std::to_string(copies) +
                     " copies, chunk " + std::to_string(chunk));
        cuda_backend_config cfg = gpu_config();
        cfg.lanes = 1;
        cfg.h_copies = copies;
        cfg.max_chunk_points = chunk;
        auto be = cuda_backend::create(cfg);
        ASSERT_THAT(be, IsOk());
        const auto got = groth16::prove(**be, req);
        ASSERT_THAT(got, IsOk());
        EXPECT_TRUE(got->pi == want->pi) << "proof over H's copies differs from the CPU proof";
        const auto fp = (*be)->resident_footprint(in->pk, in->circuit.cs);
        ASSERT_THAT(fp, IsOk());
        EXPECT_NE(fp->plan.find("precomputed copies"), std::string::npos) << fp->plan;
        EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
      }
    }
  }
}

// streaming_config(2^14) with matrix row chunks of 64 KiB, in a region of in's least budget (whole
// granules): a key whose compact matrices are several granules streams them, ~100 chunks per proof
// through the lane's matrix slots. max_vram_bytes 0 (and a failure) when the least budget is unread.
cuda_backend_config streamed_matrices_config(const instance& in) {
  cuda_backend_config cfg = streaming_config(1 << 14);
  cfg.max_matrix_chunk_bytes = 64 << 10;
  cfg.max_vram_bytes = round_up_to_granule(least_budget(in, cfg));
  return cfg;
}

// The matrices streamed too (the plan of a 2^27 partition in 16 GiB): a PoRep-shaped key whose
// compact matrices are several granules, on a backend whose region is the least budget with row
// chunks of 64 KiB, so that the SpMV streams ~100 chunks per proof through the lane's matrix slots;
// both H bases (b and c in turns, and a, b, c at once); two threads sharing the one workspace. The
// proof is the CPU's, bit for bit.
TEST(CudaBackend, StreamedMatricesUnderTheLeastBudgetMatchCpu) {
  const uint64_t seed0 = pp::test::test_seed();
  for (const h_basis basis : {h_basis::monomial, h_basis::odd_coset_lagrange}) {
    SCOPED_TRACE(basis == h_basis::monomial ? "monomial" : "snarkjs");
    const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(150000, seed0 % 1000 + 7), basis, seed0 + 2);
    ASSERT_NE(inst, nullptr);
    const instance& in = *inst;
    const cuda_backend_config cfg = streamed_matrices_config(in);
    ASSERT_GT(cfg.max_vram_bytes, 0u);
    auto be = cuda_backend::create(cfg);
    ASSERT_THAT(be, IsOk());
    ASSERT_TRUE((*be)->prepare(in.pk, in.circuit.cs).ok());
    const auto fp = (*be)->resident_footprint(in.pk, in.circuit.cs);
    ASSERT_THAT(fp, IsOk());
    std::printf("region %llu: %s\n", (unsigned long long)cfg.max_vram_bytes, fp->plan.c_str());
    ASSERT_TRUE(fp->matrices_streamed) << "matrices resident: the test shows nothing";
    EXPECT_LE((*be)->used_bytes(), cfg.max_vram_bytes);
    const groth16::prove_request req = request_for(in, seed0 + 3);
    groth16::cpu_backend cpu;
    const auto want = groth16::prove(cpu, req);
    ASSERT_THAT(want, IsOk());
    for (const auto& g : prove_on_two_threads(**be, req)) {
      ASSERT_THAT(g, IsOk());
      EXPECT_TRUE(g->pi == want->pi) << "proof with streamed matrices differs from the CPU proof";
    }
    EXPECT_GE((*be)->h2d_bytes(), 2 * fp->streamed_bytes);
    EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
  }
}

// Partitions of one key taken together (start_together) on the least budget's plan, every table and
// the matrices streamed: three partitions with different witnesses (the circuit's, and two with aux
// values changed: they satisfy nothing, so their proofs are compared, not verified) prove together
// what start() proves one by one with the same (r, s), both H bases, the satisfied one verifying;
// the bytes copied a partition fall (L, A, B_G1 and B_G2 once for three). The unlimited plan (tables
// resident) is refused with failed_precondition and stays healthy; requests of two keys are refused.
TEST(CudaBackend, PartitionsTogetherMatchOneByOne) {
  const uint64_t seed0 = pp::test::test_seed();
  for (const h_basis basis : {h_basis::monomial, h_basis::odd_coset_lagrange}) {
    SCOPED_TRACE(basis == h_basis::monomial ? "monomial" : "snarkjs");
    const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(150000, seed0 % 1000 + 17), basis, seed0 + 6);
    ASSERT_NE(inst, nullptr);
    const instance& in = *inst;
    const cuda_backend_config cfg = streamed_matrices_config(in);
    ASSERT_GT(cfg.max_vram_bytes, 0u);
    auto be = cuda_backend::create(cfg);
    ASSERT_THAT(be, IsOk());
    std::vector<std::vector<fr>> witnesses(3, in.circuit.w);
    uint64_t state = seed0 + 11;
    const uint64_t first_aux = in.circuit.cs.num_public() + 1;
    for (uint64_t v = 1; v < 3; ++v) {
      for (uint64_t i = first_aux + v; i < witnesses[v].size(); i += 3) {
        const uint64_t pick = (i / 3 + v) % 10;
        witnesses[v][i] = pick == 0 ? r1cs::random_fr(state) : pick < 5 ? fr::one() : fr::zero();
      }
    }
    std::vector<groth16::prove_request> reqs;
    for (uint64_t v = 0; v < 3; ++v) {
      groth16::prove_request req = request_for(in, seed0 + 20 + v);
      req.witness = witnesses[v];
      req.options.self_verify = v == 0;
      reqs.push_back(req);
    }
    std::vector<groth16::proof> want;
    const uint64_t h2d0 = (*be)->h2d_bytes();
    for (const auto& req : reqs) {
      auto r = groth16::prove(**be, req);
      ASSERT_THAT(r, IsOk());
      want.push_back(r->pi);
    }
    const uint64_t one_by_one = (*be)->h2d_bytes() - h2d0;
    auto pending = (*be)->start_together(reqs);
    ASSERT_THAT(pending, IsOk());
    const uint64_t together = (*be)->h2d_bytes() - h2d0 - one_by_one;
    ASSERT_EQ(pending->size(), 3u);
    for (size_t v = 0; v < 3; ++v) {
      auto out = (*be)->finish(std::move((*pending)[v]));
      ASSERT_THAT(out, IsOk());
      EXPECT_TRUE(out->pi == want[v]) << "partition " << v << " together differs from its proof alone";
    }
    std::printf("h2d for three partitions: %llu bytes one by one, %llu together\n", (unsigned long long)one_by_one,
                (unsigned long long)together);
    EXPECT_LT(together, one_by_one);
    const auto inputs = std::span<const fr>(in.circuit.w).subspan(1, in.circuit.cs.num_public());
    EXPECT_THAT(groth16::verify(in.pk.vk, inputs, want[0]), IsOk());
    EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
    // Two keys in one call.
    const auto other = make_instance(64, 1, 100, basis, seed0 + 9);
    std::vector<groth16::prove_request> mixed = {reqs[0], request_for(*other, seed0)};
    EXPECT_THAT((*be)->start_together(mixed), StatusIs(status_code::invalid_argument));
  }
  // Every table resident: nothing to share.
  const auto small = make_instance(300, 2, 500, h_basis::monomial, seed0 + 31);
  const std::vector<groth16::prove_request> two = {request_for(*small, 1), request_for(*small, 2)};
  EXPECT_THAT(gpu().start_together(two), StatusIs(status_code::failed_precondition));
  EXPECT_TRUE(gpu().healthy()) << gpu().last_error();
}

// A group refused once some of it is enqueued: on a staging that holds two packed witnesses, three
// taken together run the first two fronts (each next witness is packed under the GPU work of the one
// before) before the third does not fit. The refusal is resource_exhausted (the engine then takes
// fewer), the device stays healthy, and the drained lane proves on: the first two together give the
// proofs they give alone.
TEST(CudaBackend, PartitionsTogetherRefusedMidwayLeaveTheLaneClean) {
  const uint64_t seed0 = pp::test::test_seed();
  const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(150000, seed0 % 1000 + 19), h_basis::monomial,
                                       seed0 + 8);
  ASSERT_NE(inst, nullptr);
  const instance& in = *inst;
  cuda_backend_config cfg = streamed_matrices_config(in);
  cfg.staging_bytes = together_staging_bytes(2, packed_layout_of(std::span<const fr>(in.circuit.w)).bytes);
  auto be = cuda_backend::create(cfg);
  ASSERT_THAT(be, IsOk());
  std::vector<groth16::prove_request> reqs;
  for (uint64_t v = 0; v < 3; ++v) reqs.push_back(request_for(in, seed0 + 40 + v));
  const auto refused = (*be)->start_together(reqs);
  EXPECT_THAT(refused, StatusIs(status_code::resource_exhausted));
  if (!refused.ok()) {
    EXPECT_THAT(refused.error().message(), HasSubstr("2 of 3"));
  }
  EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
  std::vector<groth16::proof> want;
  for (size_t v = 0; v < 2; ++v) {
    auto r = groth16::prove(**be, reqs[v]);
    ASSERT_THAT(r, IsOk());
    want.push_back(r->pi);
  }
  auto pending = (*be)->start_together(std::span(reqs).first(2));
  ASSERT_THAT(pending, IsOk());
  ASSERT_EQ(pending->size(), 2u);
  for (size_t v = 0; v < 2; ++v) {
    auto out = (*be)->finish(std::move((*pending)[v]));
    ASSERT_THAT(out, IsOk());
    EXPECT_TRUE(out->pi == want[v]) << "partition " << v << " together differs from its proof alone";
  }
  const auto inputs = std::span<const fr>(in.circuit.w).subspan(1, in.circuit.cs.num_public());
  EXPECT_THAT(groth16::verify(in.pk.vk, inputs, want[0]), IsOk());
  EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
}

// The same streamed key and matrices with the partitions' copies held to 4 GiB/s (link_pacer.hpp, the
// measurement aid for slower links): the witness upload, every matrix row chunk and every point
// chunk go through the pacer's kernels on the copy streams, two threads at once; the proofs are the
// CPU's, bit for bit.
TEST(CudaBackend, PacedCopiesMatchCpu) {
  const uint64_t seed0 = pp::test::test_seed();
  const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(150000, seed0 % 1000 + 13), h_basis::monomial,
                                       seed0 + 4);
  ASSERT_NE(inst, nullptr);
  const instance& in = *inst;
  cuda_backend_config cfg = streamed_matrices_config(in);
  ASSERT_GT(cfg.max_vram_bytes, 0u);
  cfg.h2d_cap_bytes_per_s = 4.0 * (uint64_t{1} << 30);
  cfg.max_vram_bytes += granule;  // the pacer's state sits behind the region
  auto be = cuda_backend::create(cfg);
  ASSERT_THAT(be, IsOk());
  ASSERT_TRUE((*be)->prepare(in.pk, in.circuit.cs).ok());
  const auto fp = (*be)->resident_footprint(in.pk, in.circuit.cs);
  ASSERT_THAT(fp, IsOk());
  ASSERT_GT(fp->streamed_bytes, 0u) << "nothing streamed: the test shows nothing";
  const groth16::prove_request req = request_for(in, seed0 + 5);
  groth16::cpu_backend cpu;
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  for (const auto& g : prove_on_two_threads(**be, req)) {
    ASSERT_THAT(g, IsOk());
    EXPECT_TRUE(g->pi == want->pi) << "paced proof differs from the CPU proof";
  }
  EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
  cfg.h2d_cap_bytes_per_s = -1;
  EXPECT_THAT(cuda_backend::create(cfg), StatusIs(status_code::invalid_argument));
}

// The streamed matrices' pinned image is host memory beyond the key: charged through the host
// charge before it is made and released with the key. A refused charge fails the proof with
// failed_precondition naming the image (the backend stays healthy); a granted one holds exactly the
// image's bytes while the key is placed, the proof equal to the CPU's.
TEST(CudaBackend, StreamedMatricesImageIsChargedToTheHost) {
  const uint64_t seed0 = pp::test::test_seed();
  const auto inst = make_keyed_circuit(r1cs::synthetic_params::porep(150000, seed0 % 1000 + 11), h_basis::monomial, seed0);
  ASSERT_NE(inst, nullptr);
  const instance& in = *inst;
  const cuda_backend_config cfg = streamed_matrices_config(in);
  ASSERT_GT(cfg.max_vram_bytes, 0u);
  const groth16::prove_request req = request_for(in, seed0 + 5);

  auto refusing = cuda_backend::create(cfg);
  ASSERT_THAT(refusing, IsOk());
  (*refusing)->set_host_charge([](uint64_t) -> result<std::shared_ptr<void>> {
    return unavailable("test: the host budget is full");
  });
  const auto refused = (*refusing)->start(req);
  ASSERT_THAT(refused, StatusIs(status_code::failed_precondition));
  EXPECT_NE(refused.error().message().find("pinned image"), std::string::npos) << refused.error().message();
  EXPECT_TRUE((*refusing)->healthy());

  auto held = std::make_shared<std::atomic<uint64_t>>(0);
  auto be = cuda_backend::create(cfg);
  ASSERT_THAT(be, IsOk());
  (*be)->set_host_charge([held](uint64_t bytes) -> result<std::shared_ptr<void>> {
    *held += bytes;
    return std::shared_ptr<void>(new char, [held, bytes](void* p) {
      delete static_cast<char*>(p);
      *held -= bytes;
    });
  });
  groth16::cpu_backend cpu;
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  const auto got = groth16::prove(**be, req);
  ASSERT_THAT(got, IsOk());
  EXPECT_TRUE(got->pi == want->pi);
  const auto fp = (*be)->resident_footprint(in.pk, in.circuit.cs);
  ASSERT_THAT(fp, IsOk());
  ASSERT_TRUE(fp->matrices_streamed) << fp->plan;
  EXPECT_GT(held->load(), 0u);
  EXPECT_LE(held->load(), fp->streamed_bytes) << "the image is part of what each partition streams";
  (*be)->clear_keys();
  EXPECT_EQ(held->load(), 0u) << "the charge outlived the key";
}

TEST(CudaBackend, RejectsBadRequests) {
  auto in = make_instance(10, 1, 12, h_basis::odd_coset_lagrange, 3);
  ASSERT_NE(in, nullptr);
  groth16::prove_request req;
  req.pk = &in->pk;
  req.cs = &in->circuit.cs;
  const std::vector<fr> short_w(in->circuit.w.begin(), in->circuit.w.end() - 1);
  req.witness = short_w;
  auto r = gpu().start(req);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  req.pk = nullptr;
  EXPECT_THAT(gpu().start(req), Not(IsOk()));

  // A pending from another backend is refused.
  req.pk = &in->pk;
  req.witness = in->circuit.w;
  groth16::cpu_backend cpu;
  auto p = cpu.start(req);
  ASSERT_THAT(p, IsOk());
  auto f = gpu().finish(std::move(p).value());
  ASSERT_THAT(f, StatusIs(status_code::invalid_argument));
  EXPECT_TRUE(gpu().healthy());
  gpu().clear_keys();
}

}  // namespace
}  // namespace pp::cuda::test

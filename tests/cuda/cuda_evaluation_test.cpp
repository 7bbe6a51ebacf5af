// cuda_backend::prove_evaluations (src/cuda/prover/cuda_backend.hpp) against groth16::prove_from_evaluations
// on the CPU as the oracle: for PoRep-shaped circuits of fresh random seeds, from a handful of
// constraints past powers of two up to 2^16, the same request and (r, s) give the same 384 bytes;
// also with two threads at once on two lanes, on a second key beside the first (and forget_key),
// with keys streamed under tiny VRAM budgets (every table chunked; b and c in turns), and a budget
// below the least plan refused. Requests the key does not match are errors, and evaluations that are not A w,
// B w, C w give an error (the proof fails verification), never a proof. Exits 77 without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend_test_config.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "groth16/evaluation_prover.hpp"
#include "r1cs/synthetic.hpp"
#include "support/groth16_fixtures.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::Not;

using ff::fr;
using groth16::h_basis;

[[maybe_unused]] ::testing::Environment* const warm_env = ::testing::AddGlobalTestEnvironment(new warm_kernels);

// A PoRep-shaped circuit, its monomial key and the evaluations a request points into
// (support/groth16_fixtures.hpp).
struct fixture {
  std::unique_ptr<pp::test::keyed_circuit> keyed;
  pp::test::evaluations ev;

  groth16::evaluation_request request(const groth16::blinding& rs) const {
    return ev.request(keyed->pk, keyed->circuit.cs, keyed->circuit.w, rs);
  }
};

std::unique_ptr<fixture> make_fixture(uint64_t constraints, uint64_t seed) {
  auto keyed = pp::test::make_keyed_circuit(r1cs::synthetic_params::porep(constraints, seed), h_basis::monomial, seed + 1);
  if (!keyed) return nullptr;
  auto ev = pp::test::make_evaluations(keyed->circuit.cs, keyed->circuit.w, keyed->pk);
  return std::make_unique<fixture>(fixture{std::move(keyed), std::move(ev)});
}

groth16::blinding random_rs(uint64_t& state) { return {r1cs::random_fr(state), r1cs::random_fr(state)}; }

cuda_backend_config small_config() { return backend_test_config(8, 64, 2); }

std::unique_ptr<cuda_backend> make_backend(const cuda_backend_config& cfg) {
  auto r = cuda_backend::create(cfg);
  EXPECT_THAT(r, IsOk());
  return r.ok() ? std::move(r).value() : nullptr;
}

// The GPU's proof of req and the CPU's, byte for byte.
void expect_same_bytes(cuda_backend& gpu, const groth16::evaluation_request& req) {
  const auto want = groth16::prove_from_evaluations(req);
  ASSERT_THAT(want, IsOk());
  const auto got = gpu.prove_evaluations(req);
  ASSERT_THAT(got, IsOk());
  static_assert(sizeof(groth16::proof) == 384);
  EXPECT_EQ(std::memcmp(&*got, &*want, sizeof(groth16::proof)), 0) << "the GPU's proof differs from the CPU's";
  EXPECT_TRUE(gpu.healthy()) << gpu.last_error();
}

TEST(CudaEvaluations, SmallAndPowerOfTwoSizesMatchCpu) {
  uint64_t state = pp::test::test_seed();
  auto gpu = make_backend(small_config());
  ASSERT_NE(gpu, nullptr);
  // Constraint counts at the smallest sizes and past the porep generator's domain boundaries.
  for (const uint64_t m : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{100}, uint64_t{1000},
                           r1cs::synthetic_params::porep_constraints(12), r1cs::synthetic_params::porep_constraints(16)}) {
    SCOPED_TRACE("constraints " + std::to_string(m));
    auto f = make_fixture(m, state % 100000 + m);
    ASSERT_NE(f, nullptr);
    expect_same_bytes(*gpu, f->request(random_rs(state)));
    expect_same_bytes(*gpu, f->request(random_rs(state)));  // the key resident now
    gpu->clear_keys();  // the next fixture may reuse these addresses
  }
}

TEST(CudaEvaluations, TwoThreadsAndTwoKeysAtOnce) {
  uint64_t state = pp::test::test_seed();
  auto gpu = make_backend(small_config());
  ASSERT_NE(gpu, nullptr);
  auto f1 = make_fixture(3000, state % 1000 + 1);
  auto f2 = make_fixture(5000, state % 1000 + 2);
  ASSERT_NE(f1, nullptr);
  ASSERT_NE(f2, nullptr);
  std::vector<groth16::evaluation_request> reqs;
  for (int i = 0; i < 6; ++i) reqs.push_back((i % 2 ? f2 : f1)->request(random_rs(state)));
  std::vector<result<groth16::proof>> got(reqs.size(), internal_error("not run"));
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < reqs.size(); i += 2) got[i] = gpu->prove_evaluations(reqs[i]);
    });
  }
  for (auto& th : threads) th.join();
  for (size_t i = 0; i < reqs.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    ASSERT_THAT(got[i], IsOk());
    const auto want = groth16::prove_from_evaluations(reqs[i]);
    ASSERT_THAT(want, IsOk());
    EXPECT_EQ(std::memcmp(&*got[i], &*want, sizeof(groth16::proof)), 0);
  }
  EXPECT_GE(gpu->gpu_activity().partitions, reqs.size());
  // Forgetting a key nobody placed changes nothing; forgetting a placed one empties the region, and
  // the next proof places its key again.
  const uint64_t used = gpu->used_bytes();
  ASSERT_GT(used, 0u);
  groth16::proving_key unplaced;
  gpu->forget_key(unplaced);
  EXPECT_EQ(gpu->used_bytes(), used);
  gpu->forget_key(f1->keyed->pk);
  EXPECT_EQ(gpu->used_bytes(), 0u);
  expect_same_bytes(*gpu, f2->request(random_rs(state)));
  EXPECT_GT(gpu->used_bytes(), 0u);
}

// The least budget a key needs, from the refusal of a one-granule (2 MiB) region (beside what the
// backend keeps for the driver's mappings of pinned memory).
uint64_t least_budget(const groth16::evaluation_request& req, cuda_backend_config cfg) {
  cfg.max_vram_bytes = 1;
  cfg.max_vram_bytes = pin_reserve_bytes(cfg) + (uint64_t{2} << 20);
  auto be = make_backend(cfg);
  if (be == nullptr) return 0;
  const auto r = be->prove_evaluations(req);
  EXPECT_THAT(r, Not(IsOk()));
  if (r.ok()) return 0;
  EXPECT_EQ(r.error().code(), status_code::failed_precondition) << r.error().to_string();
  const std::string& m = r.error().message();
  const size_t at = m.find("at least ");
  EXPECT_NE(at, std::string::npos) << m;
  return at == std::string::npos ? 0 : std::stoull(m.substr(at + 9));
}

TEST(CudaEvaluations, StreamedKeysUnderTinyBudgetsMatchCpu) {
  constexpr uint64_t granule = uint64_t{2} << 20;
  uint64_t state = pp::test::test_seed();
  auto f = make_fixture(60000, state % 1000 + 5);
  ASSERT_NE(f, nullptr);
  const groth16::evaluation_request req = f->request(random_rs(state));
  const auto want = groth16::prove_from_evaluations(req);
  ASSERT_THAT(want, IsOk());
  cuda_backend_config cfg = small_config();
  cfg.max_chunk_points = 1024;
  const uint64_t least = least_budget(req, cfg);
  ASSERT_GT(least, 0u);
  const uint64_t least_region = (least + granule - 1) / granule * granule;
  // What a proof copies besides streamed points: a, b, c over the domain and at most the plain witness.
  const uint64_t plain = (3 * f->keyed->pk.domain_size + req.inputs.size() + req.aux.size()) * sizeof(fr);
  for (const uint64_t region : {least_region, least_region + granule, least_region + 4 * granule}) {
    SCOPED_TRACE("region " + std::to_string(region));
    cfg.max_vram_bytes = region;
    auto be = make_backend(cfg);
    ASSERT_NE(be, nullptr);
    std::vector<result<groth16::proof>> got(2, internal_error("not run"));
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) threads.emplace_back([&, t] { got[t] = be->prove_evaluations(req); });
    for (auto& th : threads) th.join();
    for (const auto& g : got) {
      ASSERT_THAT(g, IsOk());
      EXPECT_EQ(std::memcmp(&*g, &*want, sizeof(groth16::proof)), 0) << "streamed proof differs from the CPU's";
    }
    EXPECT_LE(be->used_bytes(), region);
    EXPECT_GT(be->h2d_bytes(), 2 * plain) << "nothing streamed: the test shows nothing";
    EXPECT_TRUE(be->healthy()) << be->last_error();
  }
  if (least_region > granule) {
    cfg.max_vram_bytes = least_region - granule;
    auto be = make_backend(cfg);
    ASSERT_NE(be, nullptr);
    const auto r = be->prove_evaluations(req);
    ASSERT_THAT(r, StatusIs(status_code::failed_precondition));
    EXPECT_TRUE(be->healthy());
  }
}

TEST(CudaEvaluations, BadRequestsAreErrorsNeverProofs) {
  uint64_t state = pp::test::test_seed();
  auto gpu = make_backend(small_config());
  ASSERT_NE(gpu, nullptr);
  auto f = make_fixture(2000, state % 1000 + 9);
  ASSERT_NE(f, nullptr);
  groth16::evaluation_request req = f->request(random_rs(state));
  // A density whose popcount disagrees with the key's A points.
  std::vector<uint64_t> more = f->ev.a_aux;
  for (uint64_t& w : more) w = ~w;
  groth16::evaluation_request bad = req;
  bad.a_aux.words = more;
  auto r = gpu->prove_evaluations(bad);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  // Evaluations that are not A w: the proof fails verification, and is not returned.
  std::vector<fr> a = f->ev.a;
  a[a.size() / 2] += fr::one();
  bad = req;
  bad.a = a;
  r = gpu->prove_evaluations(bad);
  ASSERT_THAT(r, StatusIs(status_code::internal));
  EXPECT_NE(r.error().message().find("verification"), std::string::npos) << r.error().message();
  // The backend is still healthy and proves the good request.
  EXPECT_TRUE(gpu->healthy()) << gpu->last_error();
  expect_same_bytes(*gpu, req);
}

}  // namespace
}  // namespace pp::cuda::test

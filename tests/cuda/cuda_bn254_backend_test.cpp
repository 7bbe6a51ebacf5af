// cuda_backend's BN254 partitions (cuda_bn254_backend.hpp) against the CPU backend over BN254: for
// random circuits of both H bases (fresh each run: the test's seed) from 1 constraint to a few thousand,
// with MSMs cut into small chunks, one streamed under the least VRAM budget, and one of 2^20 rows, the
// GPU proof with fixed (r, s) is identical to the CPU proof and verifies with BN254's verifier. BN254
// and BLS12-381 keys take turns on one backend's region and lanes (identical proofs on both curves), and
// a pending proof of one curve handed to the other's finish is refused. Exits 77 without a GPU.
#include "cuda/prover/cuda_bn254_backend.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backend_test_config.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "cuda/prover/kernel_warmup.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using bls = ec::bls12_381::family;
using bn = ec::bn254::family;
using groth16::h_basis;

[[maybe_unused]] ::testing::Environment* const warm_env = ::testing::AddGlobalTestEnvironment(new warm_kernels);

std::unique_ptr<cuda_backend> make_gpu(uint32_t max_chunk_points = 0) {
  cuda_backend_config cfg = backend_test_config(16, 128, 2);
  cfg.max_chunk_points = max_chunk_points;
  auto r = cuda_backend::create(cfg);
  if (!r.ok()) {
    std::fprintf(stderr, "cuda_backend::create: %s\n", r.error().to_string().c_str());
    std::abort();
  }
  return std::move(r).value();
}

// A random satisfied circuit of Family with m constraints and its insecure key in `basis`.
template <class Family>
struct keyed {
  groth16::testing::basic_test_circuit<typename Family::fr> circuit;
  groth16::basic_proving_key<Family> pk;
};

template <class Family>
std::unique_ptr<keyed<Family>> make_keyed(uint64_t m, uint64_t num_public, h_basis basis, uint64_t& state) {
  using fr = typename Family::fr;
  auto out = std::make_unique<keyed<Family>>();
  out->circuit = groth16::testing::random_circuit<fr>(state, m, num_public);
  auto pk =
      groth16::setup_insecure<Family>(out->circuit.cs, basis, groth16::toxic_waste_from_seed_insecure<fr>(state++));
  EXPECT_THAT(pk, IsOk());
  if (!pk.ok()) return nullptr;
  out->pk = std::move(pk).value();
  return out;
}

template <class Family>
groth16::basic_prove_request<Family> request_for(const keyed<Family>& k, uint64_t& state) {
  using fr = typename Family::fr;
  groth16::basic_prove_request<Family> req;
  req.pk = &k.pk;
  req.cs = &k.circuit.cs;
  req.witness = k.circuit.w;
  std::mt19937_64 g(state++);
  req.rs = groth16::basic_blinding<Family>{pp::test::random_scalar<fr>(g), pp::test::random_scalar<fr>(g)};
  return req;
}

// Proves k with the CPU backend and with gpu (same (r, s)): identical proofs, and the GPU's verifies.
template <class Family>
void expect_same_proof(groth16::basic_backend<Family>& gpu, const keyed<Family>& k, uint64_t& state,
                       const std::string& what) {
  SCOPED_TRACE(what);
  const auto req = request_for(k, state);
  groth16::basic_cpu_backend<Family> cpu;
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  const auto got = groth16::prove(gpu, req);  // self_verify on (the default)
  ASSERT_THAT(got, IsOk());
  EXPECT_TRUE(got->pi.a == want->pi.a) << "pi_A differs";
  EXPECT_TRUE(got->pi.b == want->pi.b) << "pi_B differs";
  EXPECT_TRUE(got->pi.c == want->pi.c) << "pi_C differs";
  const auto inputs = std::span<const typename Family::fr>(k.circuit.w).subspan(1, k.circuit.cs.num_public());
  EXPECT_THAT(groth16::verify(k.pk.vk, inputs, got->pi), IsOk());
}

class CudaBn254Basis : public testing::TestWithParam<h_basis> {};

TEST_P(CudaBn254Basis, SmallCircuitsMatchCpu) {
  auto gpu = make_gpu();
  cuda_bn254_backend be(*gpu);
  uint64_t state = pp::test::test_seed() ^ (GetParam() == h_basis::monomial ? 0x6d6f6e6full : 0x736e726bull);
  // Rows are m + 3 with 2 public inputs: 61..65 put them around 2^6.
  for (uint64_t m : {1, 2, 3, 7, 8, 9, 61, 62, 63, 64, 65, 255, 256, 257, 3000}) {
    auto k = make_keyed<bn>(m, 2, GetParam(), state);
    ASSERT_NE(k, nullptr);
    expect_same_proof<bn>(be, *k, state, "m = " + std::to_string(m));
    gpu->clear_keys();  // the next key may reuse these addresses
  }
  EXPECT_TRUE(gpu->healthy()) << gpu->last_error();
}

// MSMs in chunks of 1024 points (the chunked sums' merge path) over a few thousand points.
TEST_P(CudaBn254Basis, ChunkedMsmsMatchCpu) {
  auto gpu = make_gpu(1024);
  cuda_bn254_backend be(*gpu);
  uint64_t state = pp::test::test_seed() ^ 0x63686e6bull;
  auto k = make_keyed<bn>(5000, 3, GetParam(), state);
  ASSERT_NE(k, nullptr);
  expect_same_proof<bn>(be, *k, state, "5000 constraints, 1024-point chunks");
  EXPECT_TRUE(gpu->healthy()) << gpu->last_error();
}

INSTANTIATE_TEST_SUITE_P(Bases, CudaBn254Basis, testing::Values(h_basis::odd_coset_lagrange, h_basis::monomial),
                         [](const auto& info) {
                           return std::string(info.param == h_basis::monomial ? "monomial" : "snarkjs");
                         });

// The size: a circom-style (snarkjs basis) circuit of 2^20 QAP rows, dense witness.
TEST(CudaBn254, TwoToTheTwentyMatchesCpu) {
  auto gpu = make_gpu();
  cuda_bn254_backend be(*gpu);
  uint64_t state = pp::test::test_seed() ^ 0x3230ull;
  const uint64_t num_public = 4;
  auto k = make_keyed<bn>((uint64_t{1} << 20) - num_public - 1, num_public, h_basis::odd_coset_lagrange, state);
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->pk.domain_size, uint64_t{1} << 20);
  expect_same_proof<bn>(be, *k, state, "2^20 rows");
  EXPECT_TRUE(gpu->healthy()) << gpu->last_error();
}

// A BN254 key streamed under the least budget its plan names (its tables copied in chunks of 1024 of
// BN254's 64- and 128-byte points through the lanes' slots), and one granule more: identical proofs.
TEST(CudaBn254, StreamedUnderTinyBudgetsMatchesCpu) {
  uint64_t state = pp::test::test_seed() ^ 0x7374726dull;
  auto k = make_keyed<bn>(20000, 3, h_basis::odd_coset_lagrange, state);
  ASSERT_NE(k, nullptr);
  cuda_backend_config cfg = backend_test_config(16, 128, 2);
  cfg.max_chunk_points = 1024;
  cuda_backend_config tiny = cfg;
  tiny.max_vram_bytes = 1;
  const auto refused = cuda_backend::footprint(k->pk, k->circuit.cs, tiny);
  ASSERT_THAT(refused, StatusIs(status_code::resource_exhausted));
  const std::string& m = refused.error().message();
  const size_t at = m.find("at least ");
  ASSERT_NE(at, std::string::npos) << m;
  const uint64_t least = std::stoull(m.substr(at + 9));
  const auto req = request_for(*k, state);
  groth16::basic_cpu_backend<bn> cpu;
  const auto want = groth16::prove(cpu, req);
  ASSERT_THAT(want, IsOk());
  constexpr uint64_t granule = device_memory::granularity;
  const uint64_t least_region = (least + granule - 1) / granule * granule;
  for (const uint64_t region : {least_region, least_region + granule}) {
    SCOPED_TRACE("region " + std::to_string(region));
    cfg.max_vram_bytes = region;
    auto be = cuda_backend::create(cfg);
    ASSERT_THAT(be, IsOk());
    ASSERT_THAT((*be)->prepare(k->pk, k->circuit.cs), IsOk());
    const auto fp = (*be)->resident_footprint(k->pk, k->circuit.cs);
    ASSERT_THAT(fp, IsOk());
    std::printf("region %llu: %s\n", (unsigned long long)region, fp->plan.c_str());
    // At the least budget every table the plan can stream is streamed; one granule more may hold
    // all of a key this small.
    if (region == least_region) EXPECT_GT(fp->streamed_bytes, 0u) << "nothing streamed: the test shows nothing";
    cuda_bn254_backend gpu(**be);
    const auto got = groth16::prove(gpu, req);
    ASSERT_THAT(got, IsOk());
    EXPECT_TRUE(got->pi == want->pi) << "streamed BN254 proof differs from the CPU proof";
    EXPECT_GE((*be)->h2d_bytes(), fp->streamed_bytes);
    EXPECT_TRUE((*be)->healthy()) << (*be)->last_error();
  }
}

// Keys of both curves placed side by side in one region, proofs taking turns on its lanes.
TEST(CudaBn254, CurvesShareOneRegion) {
  auto gpu = make_gpu();
  cuda_bn254_backend be(*gpu);
  uint64_t state = pp::test::test_seed() ^ 0x73686172ull;
  auto bn_key = make_keyed<bn>(700, 2, h_basis::odd_coset_lagrange, state);
  auto bls_key = make_keyed<bls>(700, 2, h_basis::odd_coset_lagrange, state);
  ASSERT_NE(bn_key, nullptr);
  ASSERT_NE(bls_key, nullptr);
  // The BLS12-381 key's larger MSM workspace plans the region once more (its workspaces are the
  // largest key's); after that both keys stay placed: switching curves costs no re-plan.
  uint64_t replans_after_first_round = 0;
  for (int round = 0; round < 3; ++round) {
    expect_same_proof<bn>(be, *bn_key, state, "BN254, round " + std::to_string(round));
    expect_same_proof<bls>(*gpu, *bls_key, state, "BLS12-381, round " + std::to_string(round));
    if (round == 0) replans_after_first_round = gpu->replans();
  }
  EXPECT_LE(replans_after_first_round, 1u);
  EXPECT_EQ(gpu->replans(), replans_after_first_round) << "keys of both curves thrash the region";
  EXPECT_TRUE(gpu->healthy()) << gpu->last_error();
}

TEST(CudaBn254, FinishRefusesTheOtherCurvesPending) {
  auto gpu = make_gpu();
  cuda_bn254_backend be(*gpu);
  uint64_t state = pp::test::test_seed() ^ 0x66696eull;
  auto bn_key = make_keyed<bn>(40, 1, h_basis::odd_coset_lagrange, state);
  auto bls_key = make_keyed<bls>(40, 1, h_basis::odd_coset_lagrange, state);
  ASSERT_NE(bn_key, nullptr);
  ASSERT_NE(bls_key, nullptr);
  auto bn_pending = be.start(request_for(*bn_key, state));
  ASSERT_THAT(bn_pending, IsOk());
  EXPECT_THAT(gpu->finish(std::move(bn_pending).value()), StatusIs(status_code::invalid_argument));
  auto bls_pending = gpu->start(request_for(*bls_key, state));
  ASSERT_THAT(bls_pending, IsOk());
  EXPECT_THAT(be.finish(std::move(bls_pending).value()), StatusIs(status_code::invalid_argument));
  EXPECT_TRUE(gpu->healthy()) << gpu->last_error();
}

}  // namespace
}  // namespace pp::cuda::test

// GPU MSM (src/cuda/msm/msm_device.hpp) against the host MSMs on fresh random inputs: G1 and G2 of
// BLS12-381 and BN254 (each with its own scalar field), plain Pippenger and split, n = 0, 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 against msm::naive_msm, 2^16..2^20
// against msm::pippenger / msm::split_msm; random 255-bit and witness-like (mostly 0/1) scalars,
// infinity points, repeated points, P and -P, one giant bucket, forced window widths; chunked runs
// (tiny chunk limits, chunk sums equal, opposite or zero, chunks adding into the buckets earlier
// ones filled); the split MSM's selected passes at their edges (no, one, a chunk limit of and all
// points with scalars other than 0 and 1); points streamed from host memory through two slots (both
// MSMs, many chunks, chunks without scalars other than 0 and 1). Results are compared as affine
// points.
// Exits 77 without a GPU (gpu_test_main.cpp).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <algorithm>
#include <deque>
#include <memory>
#include <numeric>
#include <span>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/msm/msm_device.hpp"
#include "cuda/plan/msm_tuning.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "device_buffer.hpp"
#include "ec/ec.hpp"
#include "gpu_test_util.hpp"
#include "msm/msm.hpp"
#include "msm_points.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::Not;

template <class Curve>
using fr_t = typename Curve::scalar_field;

enum class path { plain, split };

// Runs the GPU MSM on (points, scalars) and returns its result in affine form.
template <class Curve>
ec::affine<Curve> gpu_msm(const std::vector<ec::affine<Curve>>& points, const std::vector<fr_t<Curve>>& scalars,
                          path p, int window_bits = 0, uint64_t max_chunk_points = 0) {
  using fr = fr_t<Curve>;
  const uint64_t n = points.size();
  const msm_config cfg{.window_bits = window_bits, .max_chunk_points = max_chunk_points};
  auto bytes = p == path::plain ? msm_workspace_bytes<Curve>(n, cfg) : split_msm_workspace_bytes<Curve>(n, cfg);
  EXPECT_THAT(bytes, IsOk()) << (bytes.ok() ? "" : bytes.error().to_string());
  if (!bytes.ok()) return ec::affine<Curve>::infinity();
  device_buffer d_points(n * sizeof(ec::affine<Curve>)), d_scalars(n * sizeof(fr)), ws(*bytes);
  EXPECT_TRUE(d_points.p && d_scalars.p && ws.p);
  EXPECT_EQ(cudaMemcpy(d_points.p, points.data(), n * sizeof(ec::affine<Curve>), cudaMemcpyHostToDevice),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d_scalars.p, scalars.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
  ec::xyzz<Curve> out{};
  const auto* pts = static_cast<const ec::affine<Curve>*>(d_points.p);
  const auto* sc = static_cast<const fr*>(d_scalars.p);
  const status st = p == path::plain ? msm<Curve>(pts, sc, n, ws.p, *bytes, &out, nullptr, cfg)
                                     : split_msm<Curve>(pts, sc, n, ws.p, *bytes, &out, nullptr, cfg);
  EXPECT_THAT(st, IsOk());
  EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  return ec::to_affine(out);
}

template <class Curve>
class MsmDevice : public ::testing::Test {};
using curves = ::testing::Types<ec::g1_curve, ec::g2_curve, ec::bn254::g1_curve, ec::bn254::g2_curve>;
TYPED_TEST_SUITE(MsmDevice, curves);

// Small sizes against the naive double-and-add reference, both paths, random and witness scalars.
TYPED_TEST(MsmDevice, SmallSizesMatchNaive) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t sizes[] = {0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 255, 256, 257};
  int bad = 0;
  for (uint64_t n : sizes) {
    const auto pts = edgy_points<C>(rng(), n);
    for (int kind = 0; kind < 2; ++kind) {
      auto sc = kind == 0 ? random_scalars<fr>(rng, n) : witness_scalars<fr>(rng, n);
      fix_negation_scalars(sc);
      const auto want = ec::to_affine(msm::naive_msm<C>(pts, sc));
      for (path p : {path::plain, path::split}) {
        const auto got = gpu_msm<C>(pts, sc, p);
        if (!(got == want)) {
          ++bad;
          std::printf("mismatch: %s n=%llu %s %s\n", C::name, (unsigned long long)n, kind ? "witness" : "random",
                      p == path::plain ? "plain" : "split");
        }
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// Every window width on one input, including c = 1 (one bucket) and wide, nearly empty windows.
TYPED_TEST(MsmDevice, ForcedWindowWidths) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t n = 300;
  const auto pts = edgy_points<C>(rng(), n);
  auto sc = random_scalars<fr>(rng, n);
  fix_negation_scalars(sc);
  sc[5] = -fr::one();  // r - 1: the top digits
  sc[6] = fr::from_uint(2);
  const auto want = ec::to_affine(msm::naive_msm<C>(pts, sc));
  for (int c : {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17}) {
    EXPECT_TRUE(gpu_msm<C>(pts, sc, path::plain, c) == want) << "c = " << c;
    EXPECT_TRUE(gpu_msm<C>(pts, sc, path::split, c) == want) << "split c = " << c;
  }
}

// One point with one scalar everywhere: every window's entries fall into a single bucket, so the
// run spans thousands of accumulation chunks and several carry passes.
TYPED_TEST(MsmDevice, GiantBucket) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t n = (uint64_t{1} << 16) + 3;
  const auto p = random_points<C>(rng(), 1)[0];
  const std::vector<ec::affine<C>> pts(n, p);
  const std::vector<fr> sc(n, random_scalar<fr>(rng));
  const auto want = ec::to_affine(ec::scalar_mul(p, sc[0] * fr::from_uint(n)));
  EXPECT_TRUE(gpu_msm<C>(pts, sc, path::plain) == want);
  EXPECT_TRUE(gpu_msm<C>(pts, sc, path::split) == want);
  const std::vector<fr> ones(n, fr::one());
  const auto want1 = ec::to_affine(ec::scalar_mul(p, fr::from_uint(n)));
  EXPECT_TRUE(gpu_msm<C>(pts, ones, path::split) == want1);
  EXPECT_TRUE(gpu_msm<C>(pts, ones, path::plain) == want1);
}

// Large sizes against the host Pippenger / split MSM on the same inputs.
TYPED_TEST(MsmDevice, LargeSizesMatchHost) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  std::vector<uint64_t> sizes = {uint64_t{1} << 16, (uint64_t{1} << 17) + 1, (uint64_t{1} << 18) - 1,
                                 uint64_t{1} << 20};
  for (uint64_t n : sizes) {
    const auto pts = edgy_points<C>(rng(), n);
    for (int kind = 0; kind < 2; ++kind) {
      auto sc = kind == 0 ? random_scalars<fr>(rng, n) : witness_scalars<fr>(rng, n);
      fix_negation_scalars(sc);
      const auto want = ec::to_affine(kind == 0 ? msm::pippenger<C>(pts, sc) : msm::split_msm<C>(pts, sc));
      EXPECT_TRUE(gpu_msm<C>(pts, sc, path::plain) == want)
          << C::name << " plain n=" << n << (kind ? " witness" : " random");
      EXPECT_TRUE(gpu_msm<C>(pts, sc, path::split) == want)
          << C::name << " split n=" << n << (kind ? " witness" : " random");
      std::printf("%s n=%llu %s: checked\n", C::name, (unsigned long long)n, kind ? "witness" : "random");
    }
  }
}

// Tiny chunk limits: every size crosses chunk borders (a divisor, a non-divisor, and 1 point per
// chunk), both paths, against the host Pippenger / split MSM on the same inputs.
TYPED_TEST(MsmDevice, ChunkedMatchesHost) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t sizes[] = {1, 2, 3, 1000, 1001, 4097, 50003};
  int bad = 0;
  for (uint64_t n : sizes) {
    const auto pts = edgy_points<C>(rng(), n);
    for (int kind = 0; kind < 2; ++kind) {
      auto sc = kind == 0 ? random_scalars<fr>(rng, n) : witness_scalars<fr>(rng, n);
      fix_negation_scalars(sc);
      const auto want = ec::to_affine(kind == 0 ? msm::pippenger<C>(pts, sc) : msm::split_msm<C>(pts, sc));
      std::vector<uint64_t> limits = {1000, 777};
      if (n <= 3 || n == 1001) limits.push_back(1);
      for (uint64_t limit : limits) {
        for (path p : {path::plain, path::split}) {
          if (!(gpu_msm<C>(pts, sc, p, 0, limit) == want)) {
            ++bad;
            std::printf("mismatch: %s n=%llu limit=%llu %s %s\n", C::name, (unsigned long long)n,
                        (unsigned long long)limit, kind ? "witness" : "random", p == path::plain ? "plain" : "split");
          }
        }
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// Chunk sums that meet every branch of the device accumulation: equal sums (doubling), opposite
// sums (infinity), an all-zero chunk and an all-infinity chunk (adding infinity), a forced width.
TYPED_TEST(MsmDevice, ChunkSumsEqualOppositeAndZero) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t limit = 1000;
  const auto base = random_points<C>(rng(), limit);
  const auto base_sc = random_scalars<fr>(rng, limit);
  // [equal, equal, zero scalars, infinity points, equal]: 3 x S; the fourth, fifth chunk added to it.
  std::vector<ec::affine<C>> pts;
  std::vector<fr> sc;
  for (int k = 0; k < 5; ++k) {
    for (uint64_t i = 0; i < limit; ++i) {
      pts.push_back(k == 3 ? ec::affine<C>::infinity() : base[i]);
      sc.push_back(k == 2 ? fr::zero() : base_sc[i]);
    }
  }
  const auto want = ec::to_affine(msm::pippenger<C>(pts, sc));
  for (path p : {path::plain, path::split}) {
    EXPECT_TRUE(gpu_msm<C>(pts, sc, p, 0, limit) == want) << "repeated chunks";
    EXPECT_TRUE(gpu_msm<C>(pts, sc, p, 11, limit) == want) << "repeated chunks, c = 11";
  }
  // [S, -S]: the total is infinity; then [S, -S, S] = S with a short last chunk.
  std::vector<ec::affine<C>> opp(base);
  for (const auto& q : base) opp.push_back(ec::neg(q));
  std::vector<fr> opp_sc(base_sc);
  opp_sc.insert(opp_sc.end(), base_sc.begin(), base_sc.end());
  const auto zero = ec::affine<C>::infinity();
  for (path p : {path::plain, path::split}) EXPECT_TRUE(gpu_msm<C>(opp, opp_sc, p, 0, limit) == zero) << "S - S";
  opp.insert(opp.end(), base.begin(), base.begin() + 7);
  opp_sc.insert(opp_sc.end(), base_sc.begin(), base_sc.begin() + 7);
  const auto want3 = ec::to_affine(msm::pippenger<C>(opp, opp_sc));
  for (path p : {path::plain, path::split}) EXPECT_TRUE(gpu_msm<C>(opp, opp_sc, p, 0, limit) == want3) << "S - S + s";
}

// The workspace is that of one chunk, bounded at the PoRep sizes (H: 2^27 points; L, A, B ~ 2^27).
TYPED_TEST(MsmDevice, WorkspaceOfOneChunk) {
  using C = TypeParam;
  constexpr uint64_t gib = uint64_t{1} << 30;
  for (uint64_t n : {uint64_t{1} << 27, uint64_t{1} << 28, (uint64_t{1} << 32) - 1}) {
    const auto plain = msm_workspace_bytes<C>(n);
    const auto split = split_msm_workspace_bytes<C>(n);
    ASSERT_TRUE(plain.ok() && split.ok());
    EXPECT_LT(*plain, 12 * gib) << C::name << " n=" << n;
    // Below 2^31 points the split MSM's index lists cover all n (8 bytes a point).
    EXPECT_LT(*split, 12 * gib + (n < (uint64_t{1} << 31) ? 8 * n : 0)) << C::name << " n=" << n;
    std::printf("%s n=%llu: workspace plain %.2f GiB, split %.2f GiB\n", C::name, (unsigned long long)n,
                double(*plain) / gib, double(*split) / gib);
  }
  const msm_config cfg{.max_chunk_points = 5000};
  // Chunks this small grow the sort's two key/value pairs to a bucket array each (msm_plan.hpp).
  const auto one = plan_msm<C>(5000, false);
  ASSERT_TRUE(one.ok());
  const uint64_t array = sizeof(ec::xyzz<C>) * one->shape.windows * one->shape.buckets_per_window;
  EXPECT_GE(*msm_workspace_bytes<C>(20000, cfg), *msm_workspace_bytes<C>(5000));
  EXPECT_LE(*msm_workspace_bytes<C>(20000, cfg), *msm_workspace_bytes<C>(5000) + 2 * array);
  // The split MSM adds its index lists over all 20000 points and their ones partials.
  const uint64_t lists = 8 * 20000 + 2 * sizeof(ec::xyzz<C>) * (20000 / 64 + 1) + 4 * 256;
  EXPECT_GT(*split_msm_workspace_bytes<C>(20000, cfg), *split_msm_workspace_bytes<C>(5000));
  EXPECT_LE(*split_msm_workspace_bytes<C>(20000, cfg), *split_msm_workspace_bytes<C>(5000) + lists);
}

// The split MSM's selected passes at their edges, small chunk limits (n in the most chunks that
// select over all points): no other point (all 0 and 1), exactly one, exactly a chunk limit of them
// and one more (a second pass of one point), all of them (a pass per limit), against the host split
// MSM; one chunk more takes the per-chunk selection, same result.
TYPED_TEST(MsmDevice, SelectedSplitEdges) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t limit = 1000, n = limit * msm_tuning_sm90.split_select_all_max_chunks;
  const auto pts = edgy_points<C>(rng(), n);
  const auto zero_one = [&](uint64_t others) {
    std::vector<fr> sc(n);
    for (uint64_t i = 0; i < n; ++i) sc[i] = rng() % 2 ? fr::one() : fr::zero();
    for (uint64_t k = 0; k < others; ++k) sc[(k * 7919) % n] = random_scalar<fr>(rng);
    return sc;
  };
  int bad = 0;
  for (uint64_t others : {uint64_t{0}, uint64_t{1}, limit, limit + 1, n}) {
    const auto sc = zero_one(others);
    const auto want = ec::to_affine(msm::split_msm<C>(pts, sc));
    for (uint64_t lim : {limit, uint64_t{0}, limit - 1}) {
      if (!(gpu_msm<C>(pts, sc, path::split, 0, lim) == want)) {
        ++bad;
        std::printf("mismatch: %s others=%llu limit=%llu\n", C::name, (unsigned long long)others,
                    (unsigned long long)lim);
      }
    }
  }
  const std::vector<fr> zeros(n, fr::zero());
  EXPECT_TRUE(gpu_msm<C>(pts, zeros, path::split, 0, limit) == ec::affine<C>::infinity());
  EXPECT_EQ(bad, 0);
}

// A point stream for streamed MSMs: `slots` device slots of slot_bytes each, a copy stream beside the
// compute stream, the slots' events.
struct point_stream_rig {
  std::deque<device_buffer> slot_buffers;  // deque: its elements never move
  msm_point_stream ps;
  cudaStream_t compute = nullptr;

  point_stream_rig(int slots, uint64_t slot_bytes) {
    ps.slots = slots;
    ps.slot_bytes = slot_bytes;
    for (int i = 0; i < slots; ++i) {
      slot_buffers.emplace_back(slot_bytes);
      EXPECT_NE(slot_buffers.back().p, nullptr);
      ps.d_slot[i] = slot_buffers.back().p;
      EXPECT_EQ(cudaEventCreateWithFlags(&ps.loaded[i], cudaEventDisableTiming), cudaSuccess);
      EXPECT_EQ(cudaEventCreateWithFlags(&ps.freed[i], cudaEventDisableTiming), cudaSuccess);
    }
    EXPECT_EQ(cudaStreamCreateWithFlags(&ps.copy, cudaStreamNonBlocking), cudaSuccess);
    EXPECT_EQ(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking), cudaSuccess);
  }
  void synchronize() const {
    EXPECT_EQ(cudaStreamSynchronize(compute), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(ps.copy), cudaSuccess);
  }
  ~point_stream_rig() {
    for (int i = 0; i < ps.slots; ++i) {
      cudaEventDestroy(ps.loaded[i]);
      cudaEventDestroy(ps.freed[i]);
    }
    cudaStreamDestroy(ps.copy);
    cudaStreamDestroy(compute);
  }
  point_stream_rig(const point_stream_rig&) = delete;
  point_stream_rig& operator=(const point_stream_rig&) = delete;
};

// Runs msm_streamed / split_msm_streamed with the points in (pageable) host memory, streamed through
// `slots` slots of one chunk each on a copy stream, twice in a row on the same slots (the second
// MSM's first copies wait for the first's kernels), and returns both results in affine form; the
// bucket reductions the two ran to *reductions when given.
template <class Curve>
std::array<ec::affine<Curve>, 2> gpu_msm_streamed(const std::vector<ec::affine<Curve>>& points,
                                                  const std::vector<fr_t<Curve>>& scalars, path p,
                                                  uint64_t max_chunk_points, int window_bits = 0,
                                                  uint64_t* reductions = nullptr, int slots = 2) {
  using fr = fr_t<Curve>;
  const std::array<ec::affine<Curve>, 2> none{ec::affine<Curve>::infinity(), ec::affine<Curve>::infinity()};
  const uint64_t n = points.size();
  const msm_config cfg{.window_bits = window_bits, .max_chunk_points = max_chunk_points};
  auto bytes = p == path::plain ? msm_workspace_bytes<Curve>(n, cfg) : split_msm_workspace_bytes<Curve>(n, cfg);
  EXPECT_THAT(bytes, IsOk());
  if (!bytes.ok()) return none;
  device_buffer d_scalars(n * sizeof(fr)), ws(*bytes);
  EXPECT_TRUE(d_scalars.p && ws.p);
  EXPECT_EQ(cudaMemcpy(d_scalars.p, scalars.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
  point_stream_rig rig(slots, std::min(n, max_chunk_points) * sizeof(ec::affine<Curve>));
  msm_point_stream& ps = rig.ps;
  std::array<ec::xyzz<Curve>, 2> out{};
  const auto* sc = static_cast<const fr*>(d_scalars.p);
  for (auto& o : out) {
    const auto* h = points.data();
    const status st = p == path::plain ? msm_streamed<Curve>(h, sc, n, ws.p, *bytes, &o, rig.compute, ps, cfg)
                                       : split_msm_streamed<Curve>(h, sc, n, ws.p, *bytes, &o, rig.compute, ps, cfg);
    EXPECT_THAT(st, IsOk());
  }
  rig.synchronize();
  const uint64_t chunks = n == 0 ? 0 : (n + max_chunk_points - 1) / max_chunk_points;
  EXPECT_EQ(ps.h2d_bytes, 2 * n * sizeof(ec::affine<Curve>)) << "every point copied once per MSM";
  EXPECT_EQ(ps.turn, 2 * chunks);
  EXPECT_GE(ps.bucket_reductions, 2u);
  EXPECT_LE(ps.bucket_reductions, 2 * std::max<uint64_t>(chunks, 1));
  if (reductions != nullptr) *reductions = ps.bucket_reductions;
  return {ec::to_affine(out[0]), ec::to_affine(out[1])};
}

// How msm_streamed_vectors gets the vectors: dense on the device, or as packed witnesses (pack_witness)
// read from variable `first` on, or through a gather list (a permutation of a larger witness, and
// one index past it, whose scalar is 0).
enum class vectors_as { dense, packed, gathered };

// A packed witness on the device whose table reads as `scalars` (vectors_as), and its gather list.
struct packed_vector {
  packed_vector(uint64_t packed_bytes, uint64_t gather_bytes) : packed(packed_bytes), gather(gather_bytes) {}
  device_buffer packed, gather;
  packed_scalars view;
};

template <class Fr>
std::unique_ptr<packed_vector> pack_vector(const std::vector<Fr>& scalars, vectors_as as, std::mt19937_64& rng) {
  const uint64_t n = scalars.size(), first = 5, extra = 37;
  const uint64_t nv = as == vectors_as::gathered ? n + extra : first + n;
  std::vector<Fr> w = witness_scalars<Fr>(rng, nv);  // the variables no scalar reads: any values
  std::vector<uint32_t> gather;
  if (as == vectors_as::gathered) {
    gather.resize(n);
    std::vector<uint32_t> perm(nv);
    std::iota(perm.begin(), perm.end(), 0u);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (uint64_t t = 0; t < n; ++t) {
      gather[t] = perm[t];
      w[perm[t]] = scalars[t];
    }
    for (uint64_t t = 0; t < n; ++t) {
      if (scalars[t].is_zero()) {
        gather[t] = uint32_t(nv + 5);  // past the witness: reads as 0
        break;
      }
    }
  } else {
    std::copy(scalars.begin(), scalars.end(), w.begin() + first);
  }
  std::vector<std::byte> staging(1024 + nv * (sizeof(Fr) + 8));
  auto layout = pack_witness<Fr>(w, staging);
  EXPECT_THAT(layout, IsOk());
  auto out = std::make_unique<packed_vector>(layout.ok() ? layout->bytes : 1, 4 * std::max<uint64_t>(n, 1));
  if (!layout.ok()) return out;
  EXPECT_EQ(cudaMemcpy(out->packed.p, staging.data(), layout->bytes, cudaMemcpyHostToDevice), cudaSuccess);
  if (!gather.empty()) {
    EXPECT_EQ(cudaMemcpy(out->gather.p, gather.data(), 4 * n, cudaMemcpyHostToDevice), cudaSuccess);
  }
  out->view = {.d_packed = out->packed.p,
               .layout = *layout,
               .d_gather = gather.empty() ? nullptr : static_cast<const uint32_t*>(out->gather.p),
               .first = gather.empty() ? first : 0};
  return out;
}

// Runs msm_streamed_vectors over `vectors` scalar vectors of the same points (streamed as above, the
// vectors given as `as` says) and returns each vector's result in affine form; checks that the table
// was copied once and how many bucket reductions ran (*reductions when given; *together: how many
// sets of them ran together).
template <class Curve>
std::vector<ec::affine<Curve>> gpu_msm_streamed_vectors(const std::vector<ec::affine<Curve>>& points,
                                                        const std::vector<std::vector<fr_t<Curve>>>& vectors, path p,
                                                        vectors_as as, uint64_t max_chunk_points, int window_bits,
                                                        std::mt19937_64& rng, uint64_t* reductions = nullptr,
                                                        uint64_t state_bytes = 0, uint64_t* together = nullptr) {
  using fr = fr_t<Curve>;
  const uint64_t n = points.size(), count = vectors.size();
  std::vector<ec::affine<Curve>> got(count, ec::affine<Curve>::infinity());
  const bool split = p == path::split, packed = as != vectors_as::dense;
  const msm_config cfg{.window_bits = window_bits, .max_chunk_points = max_chunk_points};
  auto bytes = split ? split_msm_workspace_bytes<Curve>(n, cfg) : msm_workspace_bytes<Curve>(n, cfg);
  auto state = msm_vector_state_bytes<Curve>(n, split, packed, cfg);
  EXPECT_THAT(bytes, IsOk());
  EXPECT_THAT(state, IsOk());
  if (!bytes.ok() || !state.ok()) return got;
  if (state_bytes == 0) state_bytes = *state;
  device_buffer d_scalars(packed ? 1 : count * n * sizeof(fr)), ws(*bytes), d_state(count * state_bytes);
  EXPECT_TRUE(d_scalars.p && ws.p && d_state.p);
  std::vector<const fr*> sc;
  std::vector<std::unique_ptr<packed_vector>> keep;
  std::vector<packed_scalars> views;
  for (uint64_t i = 0; i < count; ++i) {
    if (packed) {
      keep.push_back(pack_vector(vectors[i], as, rng));
      views.push_back(keep.back()->view);
      continue;
    }
    sc.push_back(static_cast<const fr*>(d_scalars.p) + i * n);
    EXPECT_EQ(cudaMemcpy(const_cast<fr*>(sc[i]), vectors[i].data(), n * sizeof(fr), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  point_stream_rig rig(2, std::min(n, max_chunk_points) * sizeof(ec::affine<Curve>));
  std::vector<ec::xyzz<Curve>> out(count);
  const msm_vectors<Curve> v{
      .d_scalars = sc, .packed = views, .h_results = out, .d_state = d_state.p, .state_bytes = state_bytes};
  EXPECT_THAT(msm_streamed_vectors<Curve>(points.data(), n, split, v, ws.p, *bytes, rig.compute, rig.ps, cfg), IsOk());
  rig.synchronize();
  EXPECT_EQ(rig.ps.h2d_bytes, n * sizeof(ec::affine<Curve>)) << "every point copied once for all the vectors";
  if (reductions != nullptr) *reductions = rig.ps.bucket_reductions;
  if (together != nullptr) *together = rig.ps.reductions_together;
  for (uint64_t i = 0; i < count; ++i) got[i] = ec::to_affine(out[i]);
  return got;
}

// Streamed points against the host MSMs: many chunks (a divisor, a non-divisor, one point per chunk),
// random and witness scalars, through two slots and through the most (copies further ahead), and for
// the split MSM's selection over all points the edges of the per-chunk counts: chunks with no other
// point (all 0 and 1), one chunk all others, every scalar 0.
TYPED_TEST(MsmDevice, StreamedMatchesHost) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  int bad = 0;
  const auto check = [&](const std::vector<ec::affine<C>>& pts, const std::vector<fr>& sc, uint64_t limit,
                         const char* what) {
    const auto want = ec::to_affine(msm::pippenger<C>(pts, sc));
    for (path p : {path::plain, path::split}) {
      for (int slots : {msm_min_point_slots, msm_max_point_slots}) {
        const auto got = gpu_msm_streamed<C>(pts, sc, p, limit, 0, nullptr, slots);
        if (!(got[0] == want) || !(got[1] == want)) {
          ++bad;
          std::printf("mismatch: %s n=%zu limit=%llu %s %s, %d slots\n", C::name, pts.size(),
                      (unsigned long long)limit, what, p == path::plain ? "plain" : "split", slots);
        }
      }
    }
  };
  for (uint64_t n : {uint64_t{1}, uint64_t{3}, uint64_t{4097}, uint64_t{20011}}) {
    const auto pts = edgy_points<C>(rng(), n);
    auto random = random_scalars<fr>(rng, n), witness = witness_scalars<fr>(rng, n);
    fix_negation_scalars(random);
    fix_negation_scalars(witness);
    std::vector<uint64_t> limits = {1024, 1000};
    if (n <= 3) limits.push_back(1);
    for (uint64_t limit : limits) {
      check(pts, random, limit, "random");
      check(pts, witness, limit, "witness");
    }
  }
  // 5 chunks of 1000: 0/1 only, one other, all others, 0/1 only, a short last chunk of others.
  const uint64_t limit = 1000, n = 4 * limit + 7;
  const auto pts = edgy_points<C>(rng(), n);
  std::vector<fr> sc(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t k = i / limit;
    sc[i] = k == 2 || k == 4 ? random_scalar<fr>(rng) : (rng() % 2 ? fr::one() : fr::zero());
  }
  sc[limit + 17] = random_scalar<fr>(rng);
  check(pts, sc, limit, "chunks without others");
  check(pts, std::vector<fr>(n, fr::zero()), limit, "all zero");
  check(pts, std::vector<fr>(n, fr::one()), limit, "all one");
  EXPECT_EQ(bad, 0);
}

// The plain MSM's chunks, and the streamed split MSM's where they fit, merge their buckets into one
// set, reduced once: chunks that hit the buckets an earlier one filled (a repeat: equal sums; the
// negated repeat: opposite sums), a giant bucket whose runs go through carry passes before the
// merge, an all-zero chunk and a short last chunk, resident and streamed, at the table's and a
// forced width; the split MSM on the same inputs (chunks selecting their own points, and with fewer
// chunks the selection over all points in several passes); all against the host MSM.
TYPED_TEST(MsmDevice, BucketsCarryAcrossChunks) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t limit = 5000;
  const auto base = random_points<C>(rng(), limit);
  const auto base_sc = random_scalars<fr>(rng, limit);
  const auto giant = random_points<C>(rng(), 1)[0];
  const fr giant_sc = random_scalar<fr>(rng);
  std::vector<ec::affine<C>> pts;
  std::vector<fr> sc;
  const auto add = [&](const ec::affine<C>& q, const fr& k) {
    pts.push_back(q);
    sc.push_back(k);
  };
  for (uint64_t i = 0; i < limit; ++i) add(base[i], base_sc[i]);
  for (uint64_t i = 0; i < limit; ++i) add(giant, giant_sc);
  for (uint64_t i = 0; i < limit; ++i) add(base[(i * 31) % limit], fr::zero());
  for (uint64_t i = 0; i < limit; ++i) add(base[i], base_sc[i]);
  for (uint64_t i = 0; i < limit; ++i) add(ec::neg(base[i]), base_sc[i]);
  for (uint64_t i = 0; i < 13; ++i) add(base[i], i % 2 ? fr::one() : random_scalar<fr>(rng));
  const auto want = ec::to_affine(msm::pippenger<C>(pts, sc));
  int bad = 0;
  const auto expect = [&](const ec::affine<C>& got, const char* what, uint64_t lim) {
    if (!(got == want)) {
      ++bad;
      std::printf("mismatch: %s %s limit=%llu\n", C::name, what, (unsigned long long)lim);
    }
  };
  // 6 chunks (each split chunk selects its own points); 4 (the split MSM selects over all points and
  // runs its 20007 others in 3 passes of at most 7000).
  for (uint64_t lim : {limit, uint64_t{7000}}) {
    expect(gpu_msm<C>(pts, sc, path::plain, 0, lim), "plain", lim);
    expect(gpu_msm<C>(pts, sc, path::split, 0, lim), "split", lim);
    expect(gpu_msm<C>(pts, sc, path::plain, 11, lim), "plain c = 11", lim);
    expect(gpu_msm<C>(pts, sc, path::split, 11, lim), "split c = 11", lim);
    for (path p : {path::plain, path::split}) {
      const auto got = gpu_msm_streamed<C>(pts, sc, p, lim);
      expect(got[0], p == path::plain ? "streamed plain" : "streamed split", lim);
      expect(got[1], p == path::plain ? "streamed plain, again" : "streamed split, again", lim);
    }
  }
  // The streamed split MSM's chunks carry their buckets where the carried width's bucket array fits
  // the sort pair (make_msm_carried_pass): at c = 6 it does (one reduction an MSM); at the table's
  // width for 5000-point chunks (c = 9, 29 x 256 buckets) only BN254's G1 buckets (128 bytes) fit the
  // pair of 4-byte keys and values of 29 x 5000 entries, the others take one reduction a chunk (6).
  const auto plan = plan_msm<C>(pts.size(), true, {.max_chunk_points = limit});
  ASSERT_THAT(plan, IsOk());
  ASSERT_EQ(plan->shape.window_bits, 9);
  const bool carried = sizeof(ec::xyzz<C>) * 29 * 256 <= plan->layout.pair_bytes;
  EXPECT_EQ(carried, (std::is_same_v<C, ec::bn254::g1_curve>));
  const uint64_t table_reductions = carried ? 2 : 12;
  for (const auto& [c, want_reductions] : {std::pair{6, uint64_t{2}}, std::pair{0, table_reductions}}) {
    uint64_t reductions = 0;
    const auto got = gpu_msm_streamed<C>(pts, sc, path::split, limit, c, &reductions);
    expect(got[0], c == 0 ? "streamed split, table width" : "streamed split, c = 6", limit);
    expect(got[1], c == 0 ? "streamed split, table width, again" : "streamed split, c = 6, again", limit);
    EXPECT_EQ(reductions, want_reductions) << C::name << " c=" << c;
  }
  EXPECT_EQ(bad, 0);
}

// One streamed table, several scalar vectors (partitions of one key taken together): every vector's
// sum equals the host MSM's, the points copied once for all. Vectors of every kind side by side
// (random, witness-like, all zero, all one, one equal to another, one the negation of another:
// opposite sums), two, three and six of them, dense on the device and packed as witnesses (read in
// place or through a gather list), both MSMs, chunks that divide n and one that does not, the
// carried width (one reduction a vector) and the table's (split: one a chunk where the carried
// buckets do not fit the sort pair). One reduction a vector runs for all the vectors together.
TYPED_TEST(MsmDevice, StreamedVectorsMatchHost) {
  using C = TypeParam;
  using fr = fr_t<C>;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t n = 12007;
  const auto pts = edgy_points<C>(rng(), n);
  auto random = random_scalars<fr>(rng, n), witness = witness_scalars<fr>(rng, n);
  fix_negation_scalars(random);
  fix_negation_scalars(witness);
  std::vector<fr> negated(n);
  for (uint64_t i = 0; i < n; ++i) negated[i] = fr::zero() - witness[i];
  const std::vector<std::vector<fr>> all = {witness, random, std::vector<fr>(n, fr::zero()),
                                            std::vector<fr>(n, fr::one()), witness, negated};
  std::vector<ec::affine<C>> want;
  for (const auto& sc : all) want.push_back(ec::to_affine(msm::pippenger<C>(pts, sc)));
  int bad = 0;
  for (vectors_as as : {vectors_as::dense, vectors_as::packed, vectors_as::gathered}) {
    for (path p : {path::plain, path::split}) {
      for (uint64_t limit : {uint64_t{4000}, uint64_t{3001}}) {
        for (int c : {0, 6}) {
          for (uint64_t count : {uint64_t{2}, uint64_t{3}, uint64_t{6}}) {
            const uint64_t first = count == 3 ? 1 : 0;  // three: random, zero, one
            const std::vector<std::vector<fr>> vectors(all.begin() + first, all.begin() + first + count);
            uint64_t reductions = 0, together = 0;
            const auto got =
                gpu_msm_streamed_vectors<C>(pts, vectors, p, as, limit, c, rng, &reductions, 0, &together);
            for (uint64_t i = 0; i < count; ++i) {
              if (!(got[i] == want[first + i])) {
                ++bad;
                std::printf("mismatch: %s %s, vectors as %d, limit=%llu c=%d vector %llu of %llu\n", C::name,
                            p == path::plain ? "plain" : "split", int(as), (unsigned long long)limit, c,
                            (unsigned long long)i, (unsigned long long)count);
              }
            }
            const uint64_t chunks = (n + limit - 1) / limit;
            EXPECT_GE(reductions, count);
            EXPECT_LE(reductions, count * (p == path::plain ? 1 : chunks));
            if (c == 6) {
              EXPECT_EQ(reductions, count) << C::name << ": carried buckets, one reduction a vector";
            }
            // Carried at the table's width, vectors of other selections may carry other widths:
            // those reduce one by one.
            if (p == path::plain || c == 6) {
              EXPECT_EQ(together, 1u) << C::name << ": the vectors' reductions in one launch a kernel";
            }
            if (reductions != count) EXPECT_EQ(together, 0u) << C::name << ": a chunk's reduction runs alone";
          }
        }
      }
    }
  }
  // Split vectors given states without room for buckets: each chunk reduces its own, the sums the same.
  const uint64_t limit = 3001, chunks = (n + limit - 1) / limit;
  const auto plan = plan_msm<C>(n, true, {.max_chunk_points = limit});
  ASSERT_THAT(plan, IsOk());
  const uint64_t least = make_msm_vector_layout(*plan, sizeof(ec::xyzz<C>), sizeof(fr)).buckets;
  uint64_t reductions = 0;
  const std::vector<std::vector<fr>> three(all.begin(), all.begin() + 3);
  uint64_t together = 0;
  const auto got = gpu_msm_streamed_vectors<C>(pts, three, path::split, vectors_as::packed, limit, 6, rng,
                                               &reductions, least, &together);
  for (uint64_t i = 0; i < 3; ++i) {
    if (!(got[i] == want[i])) {
      ++bad;
      std::printf("mismatch: %s split, packed, least state, vector %llu\n", C::name, (unsigned long long)i);
    }
  }
  EXPECT_EQ(reductions, 3 * chunks) << "no room to carry: one reduction a chunk";
  EXPECT_EQ(together, 0u);
  EXPECT_EQ(bad, 0);
}

// What msm_streamed_vectors refuses: no vector, dense and packed together, results of another count,
// too small a state, a packed vector that reads past its witness.
TEST(MsmDeviceArgs, StreamedVectorsRefuse) {
  using C = ec::g1_curve;
  using fr = ff::fr;
  const uint64_t n = 64;
  const msm_config cfg{.max_chunk_points = 32};
  auto bytes = split_msm_workspace_bytes<C>(n, cfg);
  auto state = msm_vector_state_bytes<C>(n, true, true, cfg);
  ASSERT_THAT(bytes, IsOk());
  ASSERT_THAT(state, IsOk());
  device_buffer ws(*bytes), d_state(2 * *state), d_scalars(2 * n * sizeof(fr));
  std::vector<ec::affine<C>> pts(n, ec::affine<C>::infinity());
  point_stream_rig rig(2, 32 * sizeof(ec::affine<C>));
  std::vector<ec::xyzz<C>> out(2);
  const fr* dense[2] = {static_cast<const fr*>(d_scalars.p), static_cast<const fr*>(d_scalars.p) + n};
  std::mt19937_64 rng(pp::test::test_seed());
  auto pv = pack_vector(std::vector<fr>(n, fr::one()), vectors_as::packed, rng);
  packed_scalars past = pv->view;
  past.first = 10;  // variables 10..73 of a witness of 69
  const packed_scalars packed[2] = {pv->view, past};
  // Vectors: dense ones (d), packed ones (p), results (r), the state's bytes.
  const auto run = [&](std::span<const fr* const> d, std::span<const packed_scalars> p, std::span<ec::xyzz<C>> r,
                       uint64_t state_bytes) {
    msm_vectors<C> v;
    v.d_scalars = d;
    v.packed = p;
    v.h_results = r;
    v.d_state = d_state.p;
    v.state_bytes = state_bytes;
    return msm_streamed_vectors<C>(pts.data(), n, true, v, ws.p, *bytes, rig.compute, rig.ps, cfg);
  };
  EXPECT_THAT(run({}, {}, out, *state), Not(IsOk()));
  EXPECT_THAT(run(dense, packed, out, *state), Not(IsOk()));
  EXPECT_THAT(run(dense, {}, std::span(out).first(1), *state), Not(IsOk()));
  EXPECT_THAT(run({}, packed, out, *state - 256), Not(IsOk()));
  const auto st = run({}, packed, out, *state);
  EXPECT_THAT(st, Not(IsOk()));
  EXPECT_NE(st.to_string().find("reads variables 10 to 74 of 69"), std::string::npos) << st.to_string();
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(MsmDeviceArgs, Errors) {
  using fr = ff::fr;
  ec::g1_xyzz out{};
  EXPECT_FALSE(msm<ec::g1_curve>(nullptr, nullptr, 4, nullptr, 0, &out, nullptr).ok());
  EXPECT_FALSE(msm_workspace_bytes<ec::g1_curve>(16, msm_config{.window_bits = 40}).ok());
  EXPECT_FALSE(msm_workspace_bytes<ec::g1_curve>(uint64_t{1} << 32).ok());
  EXPECT_TRUE(msm_workspace_bytes<ec::g1_curve>(uint64_t{1} << 31).ok());
  // One chunk of 2^28 points: 13 windows x 2^28 entries overflow the 32-bit sort.
  EXPECT_FALSE(msm_workspace_bytes<ec::g1_curve>(uint64_t{1} << 28, msm_config{.max_chunk_points = 1u << 28}).ok());
  // Points are staged in 16-byte pieces: a table 8 bytes off is refused by name, plain and split.
  const uint64_t n = 64;
  auto bytes = split_msm_workspace_bytes<ec::g1_curve>(n);
  ASSERT_THAT(bytes, IsOk());
  device_buffer d_points((n + 1) * sizeof(ec::g1_affine)), d_scalars(n * sizeof(fr)), ws(*bytes);
  ASSERT_TRUE(d_points.p && d_scalars.p && ws.p);
  ASSERT_EQ(cudaMemset(d_scalars.p, 0, n * sizeof(fr)), cudaSuccess);
  const auto* off = reinterpret_cast<const ec::g1_affine*>(static_cast<const char*>(d_points.p) + 8);
  const auto* sc = static_cast<const fr*>(d_scalars.p);
  EXPECT_THAT(msm<ec::g1_curve>(off, sc, n, ws.p, *bytes, &out, nullptr),
              StatusIs(status_code::invalid_argument, ::testing::HasSubstr("16-byte aligned")));
  EXPECT_THAT(split_msm<ec::g1_curve>(off, sc, n, ws.p, *bytes, &out, nullptr),
              StatusIs(status_code::invalid_argument, ::testing::HasSubstr("16-byte aligned")));
}

}  // namespace
}  // namespace pp::cuda::test

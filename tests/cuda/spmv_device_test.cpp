// GPU SpMV (src/cuda/spmv/spmv_device.hpp) and compact witness upload (witness_upload.hpp) against the CPU
// r1cs::evaluate_abc on fresh random inputs: random systems (coefficients 0, 1, -1, repeated and
// random values; long rows; witnesses of 0, 1 and random values) and synthetic PoRep-like ones, at
// 1, 2, 3 and 2^k - 1, 2^k, 2^k + 1 rows up to 2^20, outputs poisoned and padded to the next power
// of two; the expanded witness byte for byte; one 2^24 synthetic system; argument errors. Every
// system is also multiplied with its rows streamed in row chunks (spmv_one_streamed). spmv_one (one
// matrix at a time, what the backend runs when b and c are computed in turns) on its own: each of
// A, B, C of random and synthetic systems into a poisoned buffer, padding included, equals the CPU's
// and spmv_abc's, in any order of the three; its argument errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "cuda/runtime/device_memory.hpp"
#include "cuda/spmv/spmv_device.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "gpu_test_util.hpp"
#include "r1cs/spmv.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

using ff::fr;

// One device_memory for the whole binary, carved by a bump pointer per check.
device_memory& memory() {
  static std::unique_ptr<device_memory> m = [] {
    device_memory_config cfg;
    cfg.vram_share = 0.8;
    cfg.max_bytes = uint64_t{10} << 30;
    cfg.staging_buffers = 1;
    cfg.staging_bytes = uint64_t{256} << 20;
    auto r = device_memory::create(cfg);
    if (!r.ok()) {
      std::fprintf(stderr, "device_memory: %s\n", r.error().to_string().c_str());
      std::abort();
    }
    return std::move(r).value();
  }();
  return *m;
}

struct bump {
  uint64_t next = 0;
  template <class T = void>
  T* take(uint64_t bytes) {
    auto r = memory().region(next, bytes);
    EXPECT_THAT(r, IsOk());
    next += (bytes + 255) / 256 * 256;
    return r.ok() ? static_cast<T*>(*r) : nullptr;
  }
};

fr random_fr(std::mt19937_64& rng) { return random_element<fr>(rng); }

// A random, not necessarily satisfied, system: 0..5 terms per row, now and then a long row.
r1cs::constraint_system random_system(uint64_t rows, std::mt19937_64& rng) {
  const uint64_t num_public = rng() % 4;
  const uint64_t num_aux = 1 + rng() % (rows + 8);
  const uint64_t vars = 1 + num_public + num_aux;
  std::vector<fr> repeated;
  for (int i = 0; i < 5; ++i) repeated.push_back(random_fr(rng));
  repeated.push_back(fr::from_uint(2));
  auto coeff = [&]() {
    const uint64_t u = rng() % 100;
    if (u < 60) return fr::one();
    if (u < 70) return -fr::one();
    if (u < 75) return fr::zero();
    if (u < 90) return repeated[rng() % repeated.size()];
    return random_fr(rng);
  };
  r1cs::csr_matrix m[3];
  for (auto& x : m) {
    x.row_ptr.assign(1, 0);
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t terms = rng() % 64 == 0 ? rng() % 200 : rng() % 6;
      for (uint64_t t = 0; t < terms; ++t) {
        x.cols.push_back(uint32_t(rng() % vars));
        x.coeffs.push_back(coeff());
      }
      x.row_ptr.push_back(x.cols.size());
    }
  }
  auto cs = r1cs::constraint_system::make(num_public, num_aux, std::move(m[0]), std::move(m[1]), std::move(m[2]));
  EXPECT_THAT(cs, IsOk());
  return std::move(cs).value();
}

std::vector<fr> random_witness(uint64_t vars, std::mt19937_64& rng) {
  std::vector<fr> w(vars);
  const uint64_t mode = rng() % 3;  // mostly bits, mostly random, or an even mix
  for (uint64_t i = 0; i < vars; ++i) {
    const uint64_t u = rng() % 100;
    const uint64_t bits = mode == 0 ? 95 : mode == 1 ? 10 : 60;
    w[i] = u < bits ? (rng() & 1 ? fr::one() : fr::zero()) : u < bits + 3 ? -fr::one() : random_fr(rng);
  }
  if (vars != 0) w[0] = fr::one();
  return w;
}

std::vector<fr> download(const fr* d, uint64_t n) {
  std::vector<fr> h(n);
  EXPECT_EQ(cudaMemcpy(h.data(), d, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

struct check_stats {
  uint64_t compact_bytes = 0, plain_bytes = 0, witness_bytes = 0, witness_plain = 0;
};

// The same products with the rows streamed in chunks of a random size from 512 bytes up (one row per
// chunk at the smallest), through two slots and events as the backend's lanes do, into poisoned
// buffers. Returns the number of mismatching values.
int64_t check_streamed(const compact_r1cs& compact, const fr* d_w, std::array<const std::vector<fr>*, 3> want,
                       uint64_t n, cudaStream_t s, bump& mem) {
  static std::mt19937_64 rng(pp::test::test_seed());
  // At most ~2000 chunks per matrix set, so that the 2^24 system does not take a million launches.
  const uint64_t chunk = std::max(uint64_t{512} << (rng() % 14), compact.device_bytes() / 2048);
  auto k = make_spmv_chunking(compact, chunk);
  EXPECT_THAT(k, IsOk());
  if (!k.ok()) return 1;
  std::vector<std::byte> image(k->image_bytes);
  fill_spmv_image(compact, *k, image.data());
  auto dm = upload_r1cs_tables(compact, *k, mem.take(std::max<uint64_t>(k->tables_bytes, 256)), k->tables_bytes, s);
  EXPECT_THAT(dm, IsOk());
  if (!dm.ok()) return 1;
  cudaStream_t copy;
  EXPECT_EQ(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking), cudaSuccess);
  spmv_row_stream rs;
  rs.h_image = image.data();
  rs.chunking = &*k;
  rs.copy = copy;
  for (int i = 0; i < 2; ++i) {
    rs.d_slot[i] = mem.take(k->slot_bytes);
    EXPECT_EQ(cudaEventCreateWithFlags(&rs.loaded[i], cudaEventDisableTiming), cudaSuccess);
    EXPECT_EQ(cudaEventCreateWithFlags(&rs.freed[i], cudaEventDisableTiming), cudaSuccess);
  }
  fr* d_out = mem.take<fr>(n * sizeof(fr));
  int64_t bad = 0;
  for (int which = 0; which < 3; ++which) {
    EXPECT_EQ(cudaMemsetAsync(d_out, 0xff, n * sizeof(fr), s), cudaSuccess);
    const status st = spmv_one_streamed(*dm, which, d_w, d_out, n, s, rs);
    EXPECT_THAT(st, IsOk());
    EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    bad += count_mismatches("streamed", *want[which], download(d_out, n));
  }
  uint64_t copied = 0;
  for (const spmv_chunk& ch : k->chunks) copied += ch.bytes;
  EXPECT_EQ(rs.h2d_bytes, copied);
  EXPECT_EQ(cudaStreamSynchronize(copy), cudaSuccess);
  for (int i = 0; i < 2; ++i) {
    cudaEventDestroy(rs.loaded[i]);
    cudaEventDestroy(rs.freed[i]);
  }
  cudaStreamDestroy(copy);
  return bad;
}

// Uploads cs once, then for each witness: compact upload, expansion check, SpMV into poisoned
// buffers of n values, comparison with the CPU. Returns the number of mismatching values.
int64_t check_system(const r1cs::constraint_system& cs, const std::vector<std::vector<fr>>& ws, uint64_t n,
                     check_stats* stats = nullptr) {
  cudaStream_t s;
  EXPECT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  int64_t bad = 0;
  auto compact = make_compact_r1cs(cs);
  EXPECT_THAT(compact, IsOk());
  if (!compact.ok()) return 1;
  bump mem;
  const uint64_t mbytes = compact->device_bytes();
  auto dm = upload_r1cs(*compact, mem.take(mbytes), mbytes, s);
  EXPECT_THAT(dm, IsOk());
  if (!dm.ok()) return 1;
  const uint64_t vars = cs.num_variables();
  fr* d_w = mem.take<fr>(vars * sizeof(fr));
  fr* d_abc[3];
  for (auto& p : d_abc) p = mem.take<fr>(n * sizeof(fr));
  auto staging = memory().staging(0);
  if (stats) {
    stats->compact_bytes = mbytes;
    stats->plain_bytes = compact_r1cs::plain_bytes(cs);
  }
  for (const auto& w : ws) {
    auto layout = pack_witness(std::span<const fr>(w), staging);
    EXPECT_THAT(layout, IsOk());
    if (!layout.ok()) return 1;
    EXPECT_EQ(layout->num_other, count_other_values(std::span<const fr>(w)));
    void* d_ws = mem.take(layout->bytes);
    EXPECT_EQ(cudaMemsetAsync(d_w, 0xa5, vars * sizeof(fr), s), cudaSuccess);
    EXPECT_THAT(upload_witness(*layout, staging.data(), d_ws, d_w, s), IsOk());
    for (auto* p : d_abc) EXPECT_EQ(cudaMemsetAsync(p, 0xff, n * sizeof(fr), s), cudaSuccess);
    const status st = spmv_abc(*dm, d_w, d_abc[0], d_abc[1], d_abc[2], n, s);
    EXPECT_THAT(st, IsOk());
    EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    bad += count_mismatches("witness", w, download(d_w, vars));
    std::vector<fr> a(n), b(n), c(n);
    EXPECT_THAT(r1cs::evaluate_abc(cs, w, a, b, c), IsOk());
    bad += count_mismatches("a", a, download(d_abc[0], n));
    bad += count_mismatches("b", b, download(d_abc[1], n));
    bad += count_mismatches("c", c, download(d_abc[2], n));
    bad += check_streamed(*compact, d_w, {&a, &b, &c}, n, s, mem);
    if (stats) {
      stats->witness_bytes = layout->bytes;
      stats->witness_plain = layout->plain_bytes();
    }
  }
  cudaStreamDestroy(s);
  return bad;
}

std::vector<uint64_t> sizes_up_to(int max_log) {
  std::vector<uint64_t> v = {1, 2, 3};
  for (int k = 2; k <= max_log; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (uint64_t x : {p - 1, p, p + 1}) {
      if (x > 3) v.push_back(x);
    }
  }
  return v;
}

TEST(SpmvDevice, RandomSystemsMatchCpu) {
  std::mt19937_64 rng(pp::test::test_seed());
  for (uint64_t rows : sizes_up_to(20)) {
    const auto cs = random_system(rows, rng);
    std::vector<std::vector<fr>> ws = {random_witness(cs.num_variables(), rng),
                                       random_witness(cs.num_variables(), rng)};
    // Padded to the next power of two, and for some sizes exactly the number of rows.
    const uint64_t n = rng() % 4 == 0 ? rows : std::bit_ceil(rows);
    EXPECT_EQ(check_system(cs, ws, n), 0) << "rows " << rows << " n " << n;
  }
}

TEST(SpmvDevice, SyntheticPoRepLikeMatchesCpu) {
  const uint64_t seed = pp::test::test_seed();
  for (uint64_t rows : sizes_up_to(20)) {
    r1cs::synthetic_params p;
    p.num_constraints = rows;
    p.num_public = 4;
    p.num_aux = rows;
    p.seed = seed + rows;
    auto sc = r1cs::make_synthetic(p);
    ASSERT_THAT(sc, IsOk());
    check_stats st;
    EXPECT_EQ(check_system(sc->cs, {sc->w}, std::bit_ceil(rows), &st), 0) << "rows " << rows;
    if (rows == (uint64_t{1} << 20)) {
      std::printf("2^20 synthetic: matrices %llu B compact vs %llu B plain CSR; witness %llu B vs %llu B\n",
                  (unsigned long long)st.compact_bytes, (unsigned long long)st.plain_bytes,
                  (unsigned long long)st.witness_bytes, (unsigned long long)st.witness_plain);
    }
  }
}

TEST(SpmvDevice, Synthetic2Pow24MatchesCpu) {
  const uint64_t seed = pp::test::test_seed();
  r1cs::synthetic_params p;
  p.num_constraints = uint64_t{1} << 24;
  p.num_public = 16;
  p.num_aux = uint64_t{1} << 24;
  p.seed = seed;
  const auto t0 = std::chrono::steady_clock::now();
  auto sc = r1cs::make_synthetic(p);
  ASSERT_THAT(sc, IsOk());
  std::printf("generated 2^24 in %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  check_stats st;
  EXPECT_EQ(check_system(sc->cs, {sc->w}, p.num_constraints, &st), 0);
  std::printf("2^24 synthetic: matrices %llu B compact vs %llu B plain CSR; witness %llu B vs %llu B\n",
              (unsigned long long)st.compact_bytes, (unsigned long long)st.plain_bytes,
              (unsigned long long)st.witness_bytes, (unsigned long long)st.witness_plain);
}

// spmv_one alone: the matrices in a random order, each into one poisoned buffer of n >= m values,
// against the CPU (the padding rows must come back zero) and against spmv_abc on the same witness.
TEST(SpmvDevice, SpmvOneMatchesCpu) {
  std::mt19937_64 rng(pp::test::test_seed());
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  std::vector<r1cs::constraint_system> systems;
  for (uint64_t rows : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{255}, uint64_t{256}, uint64_t{257},
                        uint64_t{1} << 14, (uint64_t{1} << 18) + 1}) {
    systems.push_back(random_system(rows, rng));
  }
  auto syn = r1cs::make_synthetic(r1cs::synthetic_params::porep((uint64_t{1} << 16) - 3, rng()));
  ASSERT_THAT(syn, IsOk());
  systems.push_back(syn->cs);
  for (const auto& cs : systems) {
    const uint64_t m = cs.num_constraints();
    const uint64_t n = std::bit_ceil(std::max<uint64_t>(m, 1)) + (rng() % 2 ? 0 : 7);  // padding rows too
    const std::vector<fr> w = random_witness(cs.num_variables(), rng);
    std::vector<fr> want[3] = {std::vector<fr>(n), std::vector<fr>(n), std::vector<fr>(n)};
    ASSERT_THAT(r1cs::evaluate_abc(cs, w, want[0], want[1], want[2]), IsOk());
    auto compact = make_compact_r1cs(cs);
    ASSERT_THAT(compact, IsOk());
    bump mem;
    const uint64_t mbytes = compact->device_bytes();
    auto dm = upload_r1cs(*compact, mem.take(std::max<uint64_t>(mbytes, 256)), mbytes, s);
    ASSERT_THAT(dm, IsOk());
    fr* d_w = mem.take<fr>(std::max<uint64_t>(w.size(), 1) * sizeof(fr));
    ASSERT_EQ(cudaMemcpyAsync(d_w, w.data(), w.size() * sizeof(fr), cudaMemcpyHostToDevice, s), cudaSuccess);
    fr* d_out = mem.take<fr>(n * sizeof(fr));
    fr* d_abc[3];
    for (auto& p : d_abc) p = mem.take<fr>(n * sizeof(fr));
    for (auto* p : d_abc) ASSERT_EQ(cudaMemsetAsync(p, 0xff, n * sizeof(fr), s), cudaSuccess);
    ASSERT_THAT(spmv_abc(*dm, d_w, d_abc[0], d_abc[1], d_abc[2], n, s), IsOk());
    std::array<int, 3> order = {0, 1, 2};
    std::shuffle(order.begin(), order.end(), rng);
    for (const int which : order) {
      ASSERT_EQ(cudaMemsetAsync(d_out, 0xff, n * sizeof(fr), s), cudaSuccess);
      const status st = spmv_one(*dm, which, d_w, d_out, n, s);
      ASSERT_THAT(st, IsOk());
      ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
      const std::vector<fr> got = download(d_out, n);
      EXPECT_EQ(count_mismatches("spmv_one vs cpu", want[which], got), 0) << "m = " << m << ", matrix " << which;
      EXPECT_EQ(count_mismatches("spmv_one vs spmv_abc", download(d_abc[which], n), got), 0)
          << "m = " << m << ", matrix " << which;
    }
  }
  // Argument errors: a matrix index out of range, n below the constraints, a null output.
  auto compact = make_compact_r1cs(systems[4]);
  ASSERT_THAT(compact, IsOk());
  bump mem;
  auto dm = upload_r1cs(*compact, mem.take(compact->device_bytes()), compact->device_bytes(), s);
  ASSERT_THAT(dm, IsOk());
  fr* d = mem.take<fr>(512 * sizeof(fr));
  EXPECT_EQ(spmv_one(*dm, 3, d, d, 512, s).code(), status_code::invalid_argument);
  EXPECT_EQ(spmv_one(*dm, -1, d, d, 512, s).code(), status_code::invalid_argument);
  EXPECT_EQ(spmv_one(*dm, 0, d, d, 255, s).code(), status_code::invalid_argument);
  EXPECT_EQ(spmv_one(*dm, 1, d, nullptr, 512, s).code(), status_code::invalid_argument);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  cudaStreamDestroy(s);
}

TEST(SpmvDevice, EmptySystemAndArgumentErrors) {
  // No constraints: every output value is padding.
  r1cs::constraint_system empty;
  EXPECT_EQ(check_system(empty, {{fr::one()}}, 8), 0);
  auto compact = make_compact_r1cs(empty);
  ASSERT_THAT(compact, IsOk());
  bump mem;
  auto dm = upload_r1cs(*compact, mem.take(compact->device_bytes()), compact->device_bytes(), nullptr);
  ASSERT_THAT(dm, IsOk());
  fr* d = mem.take<fr>(64 * sizeof(fr));
  dm->num_constraints = 16;  // as for a system of 16 rows
  EXPECT_EQ(spmv_abc(*dm, d, d, d, d, 15, nullptr).code(), status_code::invalid_argument);
  EXPECT_EQ(spmv_abc(*dm, d, nullptr, d, d, 16, nullptr).code(), status_code::invalid_argument);
  EXPECT_EQ(upload_r1cs(*compact, mem.take(256), 0, nullptr).error().code(), status_code::invalid_argument);
  // A staging buffer too small for the packed witness.
  std::vector<fr> w(1000, fr::from_uint(5));
  std::vector<std::byte> tiny(100);
  EXPECT_EQ(pack_witness(std::span<const fr>(w), tiny).error().code(), status_code::resource_exhausted);
}

}  // namespace
}  // namespace pp::cuda::test

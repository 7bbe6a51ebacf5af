// Reading bellperson parameters (formats/bellperson_params.hpp) of the PoRep shape at 2^k, the way
// c2/srs.cpp and the engine's key catalog read a key (unchecked): the image is built in memory (a
// stand-in for a file in the page cache: 64 distinct encoded points, tiled), then read with every
// core and, up to 2^24, with one (a oneTBB arena of one thread), best of `runs`, each run's steps
// (layout, allocate, decode) printed. Also times std::vector's own allocate-and-zero of the decoded
// size on one thread (what the read's parallel first touch replaces). Shape: h 2^k - 1, l 2^k,
// a 2^k - 2^k/300 (A's aux density 99.7%), b_g1 = b_g2 2^k / 4 (B's 25%), ic 2.
// Usage: formats_params_read_bench [LOG_N ...] [runs=R] (default 24, runs=2).
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ec/ec.hpp"
#include "ec/encoding.hpp"
#include "formats/bellperson_params.hpp"

namespace {

using namespace pp;
using clock_type = std::chrono::steady_clock;

double secs(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

template <class Curve>
std::vector<std::vector<uint8_t>> encodings(int count) {
  std::vector<std::vector<uint8_t>> out;
  auto p = ec::generator<Curve>();
  for (int i = 0; i < count; ++i) {
    const auto e = ec::encode_uncompressed(p);
    out.emplace_back(e.begin(), e.end());
    p = ec::to_affine(ec::add(ec::scalar_mul(p, ff::fr::from_uint(3)), ec::generator<Curve>()));
  }
  return out;
}

void put_u32(std::vector<uint8_t>& f, uint64_t at, uint32_t v) {
  f[at] = uint8_t(v >> 24), f[at + 1] = uint8_t(v >> 16), f[at + 2] = uint8_t(v >> 8), f[at + 3] = uint8_t(v);
}

// Appends a count and count tiled encodings (written in parallel).
void put_points(std::vector<uint8_t>& f, uint64_t& at, const std::vector<std::vector<uint8_t>>& enc, uint64_t count) {
  put_u32(f, at, uint32_t(count));
  at += 4;
  const uint64_t size = enc[0].size();
  uint8_t* base = f.data() + at;
  tbb::parallel_for(uint64_t{0}, count, uint64_t{1} << 16, [&](uint64_t lo) {
    const uint64_t hi = std::min(count, lo + (uint64_t{1} << 16));
    for (uint64_t i = lo; i < hi; ++i) std::memcpy(base + i * size, enc[i % enc.size()].data(), size);
  });
  at += count * size;
}

// Above this size the one-thread read is skipped (it takes minutes at 2^27).
constexpr int one_thread_max_log = 24;

void bench(int log_n, int runs) {
  const uint64_t n = uint64_t{1} << log_n;
  const uint64_t counts[5] = {n - 1, n, n - n / 300, n / 4, n / 4};  // h, l, a, b_g1, b_g2
  const auto g1 = encodings<ec::g1_curve>(64);
  const auto g2 = encodings<ec::g2_curve>(64);
  uint64_t bytes = 3 * 96 + 3 * 192 + 4 + 2 * 96;
  for (int t = 0; t < 5; ++t) bytes += 4 + counts[t] * (t == 4 ? 192 : 96);
  auto t0 = clock_type::now();
  std::vector<uint8_t> f(bytes);
  uint64_t at = 0;
  for (const auto* e : {&g1[0], &g1[1], &g2[0], &g2[1], &g1[2], &g2[2]}) {
    std::memcpy(f.data() + at, e->data(), e->size());
    at += e->size();
  }
  put_points(f, at, g1, 2);  // ic
  for (int t = 0; t < 5; ++t) put_points(f, at, t == 4 ? g2 : g1, counts[t]);
  if (at != bytes) {
    std::fprintf(stderr, "image size %llu, expected %llu\n", (unsigned long long)at, (unsigned long long)bytes);
    std::exit(1);
  }
  const double t_image = secs(t0);
  const double gib = double(uint64_t{1} << 30);
  const uint64_t points = counts[0] + counts[1] + counts[2] + counts[3] + counts[4];
  formats::bellperson_read_stats best;  // the steps of the best all-core read
  const auto read = [&](formats::bellperson_read_stats& st) {
    const auto s0 = clock_type::now();
    auto pk = formats::read_bellperson_params(f, {.checked = false, .stats = &st});
    const double t = secs(s0);
    if (!pk.ok()) {
      std::fprintf(stderr, "read: %s\n", pk.error().to_string().c_str());
      std::exit(1);
    }
    return t;
  };
  double all = 1e30, one = 1e30, alloc = 1e30;
  for (int r = 0; r < runs; ++r) {
    formats::bellperson_read_stats st;
    const double t = read(st);
    std::printf("read %d: %.3f s (layout %.3f, allocate %.3f, decode %.3f)\n", r, t, st.layout_s, st.allocate_s,
                st.decode_s);
    if (t < all) all = t, best = st;
  }
  if (log_n <= one_thread_max_log) {
    tbb::task_arena single(1);
    formats::bellperson_read_stats st;
    single.execute([&] { one = std::min(one, read(st)); });
  }
  for (int r = 0; r < runs; ++r) {
    const auto s0 = clock_type::now();
    std::vector<ec::g1_affine> v1(counts[0] + counts[1] + counts[2] + counts[3]);
    std::vector<ec::g2_affine> v2(counts[4]);
    alloc = std::min(alloc, secs(s0));
  }
  const std::string one_s = log_n <= one_thread_max_log ? std::to_string(one) : "-";
  std::printf("| 2^%d | %.2f GiB | %llu | %.2f | %s | %.1f | %.2f | %.2f |\n", log_n, double(bytes) / gib,
              (unsigned long long)points, all, one_s.c_str(), double(points) / all / 1e6, alloc, t_image);
  std::printf("result params_read_2_%d_s %.3f\n", log_n, all);
  std::printf("result params_read_2_%d_allocate_s %.3f\n", log_n, best.allocate_s);
  std::printf("result params_read_2_%d_decode_s %.3f\n", log_n, best.decode_s);
  if (log_n <= one_thread_max_log) std::printf("result params_read_2_%d_one_thread_s %.3f\n", log_n, one);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  int runs = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("runs=", 0) == 0) {
      runs = std::atoi(a.c_str() + 5);
    } else {
      sizes.push_back(std::atoi(a.c_str()));
    }
  }
  if (sizes.empty()) sizes.push_back(24);
  std::printf("threads %d\n", tbb::this_task_arena::max_concurrency());
  std::printf("| n | image | points | read s (all cores) | read s (1 thread) | M points/s | alloc+zero s | image build s |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int log_n : sizes) bench(log_n, runs < 1 ? 1 : runs);
}

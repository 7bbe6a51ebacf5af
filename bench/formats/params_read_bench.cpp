// Reading bellperson parameters (formats/bellperson_params.hpp) of the PoRep shape at 2^k, the way
// c2/srs.cpp and the engine's key catalog read a key (unchecked): the image is built in memory (a
// stand-in for a file in the page cache: tests/support/bellperson_image.hpp), then read with every
// core and, up to 2^24, with one (a oneTBB arena of one thread), best of `runs`, each run's steps
// (layout, allocate, decode) printed. Also times std::vector's own allocate-and-zero of the decoded
// size on one thread (what the read's parallel first touch replaces).
// Usage: formats_params_read_bench [LOG_N ...] [runs=R] (default 24, runs=2).
#include <tbb/task_arena.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ec/ec.hpp"
#include "formats/bellperson_params.hpp"
#include "support/bellperson_image.hpp"

namespace {

using namespace pp;
using clock_type = std::chrono::steady_clock;

double secs(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

// Above this size the one-thread read is skipped (it takes minutes at 2^27).
constexpr int one_thread_max_log = 24;

void bench(int log_n, int runs) {
  const test::bellperson_shape shape = test::porep_bellperson_shape(log_n);
  const uint64_t* counts = shape.counts;  // h, l, a, b_g1, b_g2
  const uint64_t bytes = test::bellperson_image_bytes(shape);
  auto t0 = clock_type::now();
  std::vector<uint8_t> f(bytes);
  const uint64_t at = test::write_bellperson_image(
      shape, [&](const uint8_t* b, uint64_t size, uint64_t offset) { std::memcpy(f.data() + offset, b, size); });
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

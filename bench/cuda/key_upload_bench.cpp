// Key upload of a PoRep-shaped bellperson key at 2^k from a file in the page cache to the device
// (issue 13's `key_upload_2_27_s`): the file is written first (tests/support/bellperson_image.hpp, the
// image formats_params_read_bench reads), then per
// run: formats::read_bellperson_params_file unchecked (as the engine's key catalog and c2/srs.cpp
// read it: layout, allocate, decode), the density bitmaps (set directly: fill_bellperson_density
// derives them from the circuit), and cuda_backend::prepare with a circuit of the key's variables
// and one empty constraint (the points, NTT tables and gather lists go up; no matrices to compact:
// a circuit's compaction is a circuit cost, and C2's evaluation path has none). The backend logs
// where prepare's time went. Lines "result NAME VALUE" for docs/perf/h200.json. Usage:
//   cuda_key_upload_bench [--dir D] [--runs R] [--keep] LOG_N   (D: /dev/shm, R: 2)
#include <fcntl.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_fail_fast.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "formats/bellperson_params.hpp"
#include "r1cs/constraint_system.hpp"
#include "support/bellperson_image.hpp"

namespace {

using namespace pp;
using bench::clock_type;
using bench::secs;
using bench::take;

constexpr double gib = double(uint64_t{1} << 30);

void write_all(int fd, const void* p, uint64_t bytes, uint64_t at) {
  const auto* b = static_cast<const uint8_t*>(p);
  while (bytes != 0) {
    const ssize_t w = ::pwrite(fd, b, bytes, off_t(at));
    if (w <= 0) {
      std::perror("pwrite");
      std::exit(1);
    }
    b += w, bytes -= uint64_t(w), at += uint64_t(w);
  }
}

// Writes the image with every core, returns its size.
uint64_t write_params(const std::string& path, const test::bellperson_shape& s) {
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (fd < 0) {
    std::perror(path.c_str());
    std::exit(1);
  }
  const uint64_t bytes = test::write_bellperson_image(
      s, [fd](const uint8_t* b, uint64_t size, uint64_t offset) { write_all(fd, b, size, offset); });
  ::close(fd);
  return bytes;
}

groth16::density_bitmap first_bits(uint64_t n_vars, uint64_t count) {
  groth16::density_bitmap d = groth16::density_bitmap::all_clear(n_vars);
  for (uint64_t w = 0; w < count / 64; ++w) d.words[w] = ~uint64_t{0};
  for (uint64_t i = count / 64 * 64; i < count; ++i) d.set(i);
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/dev/shm";
  int runs = 2, log_n = 0;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--keep") {
      keep = true;
    } else {
      log_n = std::atoi(a.c_str());
    }
  }
  if (log_n < 4 || log_n > 27) {
    std::fprintf(stderr, "usage: cuda_key_upload_bench [--dir D] [--runs R] [--keep] LOG_N (4..27)\n");
    return 2;
  }
  const test::bellperson_shape s = test::porep_bellperson_shape(log_n);
  const std::string path = dir + "/pp_key_upload_2_" + std::to_string(log_n) + ".params";
  std::printf("threads %d, file %s\n", tbb::this_task_arena::max_concurrency(), path.c_str());
  auto t0 = clock_type::now();
  const uint64_t bytes = write_params(path, s);
  std::printf("file written: %.2f GiB in %.1f s (it stays in the page cache)\n", bytes / gib, secs(t0));

  // The circuit: the key's variables (1 public), one empty constraint.
  const uint64_t n_vars = 2 + s.counts[1];
  r1cs::csr_matrix empty;
  empty.row_ptr = {0, 0};
  const r1cs::constraint_system cs = take(r1cs::constraint_system::make(1, n_vars - 2, empty, empty, empty), "cs");
  t0 = clock_type::now();
  cuda::cuda_backend_config cfg;
  cfg.lanes = 1;
  auto be = take(cuda::cuda_backend::create(cfg), "cuda_backend::create");
  std::printf("backend created in %.2f s (region %.1f GiB)\n", secs(t0), be->capacity_bytes() / gib);

  std::printf("| run | read s | layout | allocate | decode | densities s | prepare s | key upload s |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  double best = 1e30, best_read = 0, best_prepare = 0;
  formats::bellperson_read_stats best_st;
  for (int r = 0; r < runs; ++r) {
    formats::bellperson_read_stats st;
    t0 = clock_type::now();
    auto pk = take(formats::read_bellperson_params_file(path, {.checked = false, .stats = &st}), "read");
    const double t_read = secs(t0);
    t0 = clock_type::now();
    pk.a_density = first_bits(n_vars, pk.a.size());
    pk.b_density = first_bits(n_vars, pk.b_g1.size());
    const double t_density = secs(t0);
    t0 = clock_type::now();
    BENCH_CHECK_OK(be->prepare(pk, cs));
    const double t_prepare = secs(t0);
    const double total = t_read + t_density + t_prepare;
    std::printf("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | **%.2f** |\n", r, t_read, st.layout_s, st.allocate_s,
                st.decode_s, t_density, t_prepare, total);
    std::fflush(stdout);
    if (total < best) best = total, best_read = t_read, best_prepare = t_prepare, best_st = st;
    be->forget_key(pk);
  }
  const std::string tag = "2_" + std::to_string(log_n);
  std::printf("result key_upload_%s_s %.3f\n", tag.c_str(), best);
  std::printf("result key_upload_%s_read_s %.3f\n", tag.c_str(), best_read);
  std::printf("result key_upload_%s_read_allocate_s %.3f\n", tag.c_str(), best_st.allocate_s);
  std::printf("result key_upload_%s_read_decode_s %.3f\n", tag.c_str(), best_st.decode_s);
  std::printf("result key_upload_%s_prepare_s %.3f\n", tag.c_str(), best_prepare);
  if (!keep) std::filesystem::remove(path);
  return 0;
}

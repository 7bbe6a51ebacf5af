// The insecure development setup at scale (src/groth16/setup_insecure.hpp with the GPU multiplier of
// src/cuda/setup/fixed_base_device.hpp) on synthetic PoRep-shaped circuits of 2^k constraints
// (r1cs::make_synthetic, aux ~ constraints). First a check size with the host and the GPU
// multiplier (the keys must be equal), then GPU-only sizes. Plain table: the host scalar phase
// (total minus multiplier time), the multiply phase (time inside the multiplier: table upload,
// staging, kernels, copies), total, key points, points per second of the multiply phase, key GiB.
// Usage:
//   cuda_setup_bench [--snarkjs] [--check-log K] [--chunk-log C] [--device D] log_n...
// (defaults: monomial basis, check at 2^16, chunk 2^22, device 0, log_n 24).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_fail_fast.hpp"
#include "cuda/setup/fixed_base_device.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using namespace pp;
using pp::bench::clock_type;

using pp::bench::secs;
using pp::bench::take;


// Forwards to another multiplier and adds up the time and the points of every call.
class timed_multiplier final : public groth16::fixed_base_multiplier {
 public:
  explicit timed_multiplier(groth16::fixed_base_multiplier& inner) : inner_(inner) {}
  status mul_g1(const ec::g1_affine& base, std::span<const ff::fr> k, std::span<ec::g1_affine> out) override {
    const auto t0 = clock_type::now();
    status st = inner_.mul_g1(base, k, out);
    seconds += secs(t0);
    g1_points += k.size();
    return st;
  }
  status mul_g2(const ec::g2_affine& base, std::span<const ff::fr> k, std::span<ec::g2_affine> out) override {
    const auto t0 = clock_type::now();
    status st = inner_.mul_g2(base, k, out);
    seconds += secs(t0);
    g2_points += k.size();
    return st;
  }

  double seconds = 0;
  uint64_t g1_points = 0, g2_points = 0;

 private:
  groth16::fixed_base_multiplier& inner_;
};

r1cs::synthetic_circuit circuit(int log_n) {
  r1cs::synthetic_params p;
  p.num_public = 16;
  p.num_constraints = (uint64_t{1} << log_n) - p.num_public - 1;  // QAP rows fill the 2^log_n domain
  p.num_aux = p.num_constraints;
  p.seed = 0x5e7u + uint64_t(log_n);
  const auto t0 = clock_type::now();
  auto c = take(r1cs::make_synthetic(p), "make_synthetic");
  std::printf("2^%d: synthesized %llu constraints, %llu variables, %.3g non-zeros in %.1f s\n", log_n,
              static_cast<unsigned long long>(c.cs.num_constraints()),
              static_cast<unsigned long long>(c.cs.num_variables()),
              double(c.cs.a().nnz() + c.cs.b().nnz() + c.cs.c().nnz()), secs(t0));
  return c;
}

struct row {
  int log_n;
  const char* path;
  double scalars_s, multiply_s, total_s;
  uint64_t g1, g2;
};

void print_header() {
  std::printf("%-6s %-5s %10s %11s %9s %12s %12s %12s %9s\n", "log_n", "path", "scalars_s", "multiply_s", "total_s",
              "g1_points", "g2_points", "points/s", "key_GiB");
}

void print_row(const row& r) {
  const double gib = double(r.g1 * sizeof(ec::g1_affine) + r.g2 * sizeof(ec::g2_affine)) / double(1ull << 30);
  std::printf("%-6d %-5s %10.2f %11.2f %9.2f %12llu %12llu %12.3g %9.2f\n", r.log_n, r.path, r.scalars_s, r.multiply_s,
              r.total_s, static_cast<unsigned long long>(r.g1), static_cast<unsigned long long>(r.g2),
              double(r.g1 + r.g2) / r.multiply_s, gib);
  std::fflush(stdout);
}

groth16::proving_key run(const r1cs::constraint_system& cs, groth16::h_basis basis, groth16::fixed_base_multiplier& m,
                         int log_n, const char* path, row& out) {
  const groth16::toxic_waste_insecure tw = groth16::toxic_waste_from_seed_insecure(0x7a0 + uint64_t(log_n));
  timed_multiplier timed(m);
  const auto t0 = clock_type::now();
  groth16::proving_key pk = take(groth16::setup_insecure(cs, basis, tw, timed), "setup_insecure");
  const double total = secs(t0);
  out = row{log_n, path, total - timed.seconds, timed.seconds, total, timed.g1_points, timed.g2_points};
  return pk;
}

bool same_key(const groth16::proving_key& a, const groth16::proving_key& b) {
  const auto& v = a.vk;
  const auto& w = b.vk;
  return a.a == b.a && a.b_g1 == b.b_g1 && a.b_g2 == b.b_g2 && a.l == b.l && a.h == b.h && v.ic == w.ic &&
         v.alpha_g1 == w.alpha_g1 && v.beta_g1 == w.beta_g1 && v.beta_g2 == w.beta_g2 && v.gamma_g2 == w.gamma_g2 &&
         v.delta_g1 == w.delta_g1 && v.delta_g2 == w.delta_g2;
}

}  // namespace

int main(int argc, char** argv) {
  groth16::h_basis basis = groth16::h_basis::monomial;
  int check_log = 16, chunk_log = 22, device = 0;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--snarkjs") {
      basis = groth16::h_basis::odd_coset_lagrange;
    } else if (a == "--check-log" && i + 1 < argc) {
      check_log = std::atoi(argv[++i]);
    } else if (a == "--chunk-log" && i + 1 < argc) {
      chunk_log = std::atoi(argv[++i]);
    } else if (a == "--device" && i + 1 < argc) {
      device = std::atoi(argv[++i]);
    } else if (!a.empty() && a[0] != '-') {
      sizes.push_back(std::atoi(a.c_str()));
    } else {
      std::fprintf(stderr, "usage: %s [--snarkjs] [--check-log K] [--chunk-log C] [--device D] log_n...\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes.push_back(24);
  std::printf("basis %s, chunk 2^%d (%.2f GiB device + as much pinned host)\n",
              basis == groth16::h_basis::monomial ? "monomial (bellperson)" : "odd_coset_lagrange (snarkjs)", chunk_log,
              double(cuda::fixed_base_device::slot_bytes(uint64_t{1} << chunk_log)) / double(1ull << 30));
  const auto t0 = clock_type::now();
  auto dev = take(cuda::fixed_base_device::create({.device = device, .chunk = uint64_t{1} << chunk_log}),
                  "fixed_base_device::create");
  std::printf("fixed_base_device::create: %.2f s\n", secs(t0));

  std::vector<row> rows;
  if (check_log > 0) {
    const auto c = circuit(check_log);
    groth16::host_fixed_base_multiplier host;
    row rh{}, rg{};
    const auto want = run(c.cs, basis, host, check_log, "host", rh);
    const auto got = run(c.cs, basis, *dev, check_log, "gpu", rg);
    rows.push_back(rh);
    rows.push_back(rg);
    const bool same = same_key(want, got);
    std::printf("check 2^%d: GPU key %s the host key\n", check_log, same ? "equals" : "DIFFERS FROM");
    if (!same) return 1;
  }
  for (int log_n : sizes) {
    row r{};
    {
      const auto c = circuit(log_n);
      run(c.cs, basis, *dev, log_n, "gpu", r);  // the key is dropped at once
    }
    rows.push_back(r);
    print_header();
    print_row(r);
  }
  std::printf("\n");
  print_header();
  for (const row& r : rows) print_row(r);
  return 0;
}

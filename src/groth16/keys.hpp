// Groth16 keys of a curve family (ec/curve_family.hpp), independent of any file layout (formats/
// reads and writes them). The witness is laid out as 1 | public inputs | aux; "variables" below means
// all of them. The unqualified names (proving_key, verifying_key) are BLS12-381's.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "ec/affine.hpp"
#include "ec/bn254_points.hpp"

namespace pp::groth16 {

template <class Family>
struct basic_verifying_key {
  using family = Family;
  using g1_affine = ec::affine<typename Family::g1_curve>;
  using g2_affine = ec::affine<typename Family::g2_curve>;

  g1_affine alpha_g1;
  g1_affine beta_g1;  // not needed to verify; kept because both layouts carry it
  g2_affine beta_g2;
  g2_affine gamma_g2;
  g1_affine delta_g1;
  g2_affine delta_g2;
  std::vector<g1_affine> ic;  // one per public variable, the constant 1 included: n_public + 1

  uint32_t n_public() const { return ic.empty() ? 0 : static_cast<uint32_t>(ic.size() - 1); }
};

// Which polynomial basis the H query is in; the prover computes h to match.
enum class h_basis {
  // snarkjs: n points, Lagrange basis of the 2n-domain at the odd points w_2n * <w_n>; scalars are
  // a*b - c evaluated there (Z = -2 on that coset is folded into the points). Roots: 5^t family.
  odd_coset_lagrange,
  // bellman / bellperson: n - 1 points tau^i Z(tau) / delta; scalars are h's coefficients,
  // computed on the coset g<w_n> (g = 7) and divided by Z there. Roots: 7^t family.
  monomial,
};

// Which variables have a non-zero column in a matrix. When a query is filtered (bellperson drops
// points at infinity from A and B), its points stand only for the variables whose bit is set.
struct density_bitmap {
  std::vector<uint64_t> words;
  uint64_t size = 0;  // number of variables covered
  bool get(uint64_t i) const { return (words[i >> 6] >> (i & 63)) & 1; }
  void set(uint64_t i) { words[i >> 6] |= uint64_t{1} << (i & 63); }
  static density_bitmap all_clear(uint64_t n) { return {std::vector<uint64_t>((n + 63) / 64, 0), n}; }
  uint64_t count() const {
    uint64_t c = 0;
    for (uint64_t w : words) c += __builtin_popcountll(w);
    return c;
  }
};

template <class Family>
struct basic_proving_key {
  using family = Family;
  using g1_affine = ec::affine<typename Family::g1_curve>;
  using g2_affine = ec::affine<typename Family::g2_curve>;

  basic_verifying_key<Family> vk;
  h_basis basis = h_basis::odd_coset_lagrange;
  uint32_t n_vars = 0;       // 1 + public + aux
  uint32_t domain_size = 0;  // n, a power of two >= constraints (+ public inputs for snarkjs)

  std::vector<g1_affine> a;     // A_i(tau) G1
  std::vector<g1_affine> b_g1;  // B_i(tau) G1
  std::vector<g2_affine> b_g2;  // B_i(tau) G2
  std::vector<g1_affine> l;     // aux only: (beta A_i + alpha B_i + C_i)(tau) / delta G1
  std::vector<g1_affine> h;     // see h_basis

  // Set when a / b_g1 / b_g2 are filtered; otherwise they hold one point per variable.
  std::optional<density_bitmap> a_density;
  std::optional<density_bitmap> b_density;

  uint32_t n_public() const { return vk.n_public(); }
  uint32_t n_aux() const { return n_vars - 1 - n_public(); }
};

using verifying_key = basic_verifying_key<ec::bls12_381::family>;
using proving_key = basic_proving_key<ec::bls12_381::family>;
using ec::g1_affine;
using ec::g2_affine;

namespace bn254 {
using verifying_key = basic_verifying_key<ec::bn254::family>;
using proving_key = basic_proving_key<ec::bn254::family>;
}  // namespace bn254

}  // namespace pp::groth16

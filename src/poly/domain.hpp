// evaluation_domain: the multiplicative subgroup <omega> of Fr of size n = 2^k (k <= 28), its coset
// g*<omega> with g Fr's multiplicative generator (7 on BLS12-381, 5 on BN254), and the twiddle tables
// the NTT reads. Built once per circuit size and shared read-only by every NTT on it (the tables are
// immutable after create()). A template over the scalar field, instantiated for both curves
// (poly/bls12_381_instances.cpp, poly/bn254_instances.cpp); `evaluation_domain` is BLS12-381's.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "ff/roots_of_unity.hpp"

namespace pp::poly {

template <class Fr>
class basic_evaluation_domain {
 public:
  // 2^28 is the largest size the prover needs (PoRep partitions are 2^27) and BN254's Fr allows
  // (BLS12-381's allows 2^32, but the twiddle table alone would then take 64 GiB).
  static constexpr int max_log_n = 28;
  static_assert(Fr::params::two_adicity >= max_log_n);
  // Sub-transforms up to this size run as one in-cache radix-2 pass (2^12 * 32 B = 128 KiB, an L2
  // slice); they read the compact leaf table below instead of strided entries of the big one.
  // Untuned: on the shared 2-core dev host 2^14 measured within noise of 2^12 (one thread, 2^16..2^22).
  static constexpr int leaf_log_n = 12;

  // The domain of size 2^log_n; invalid_argument unless 0 <= log_n <= max_log_n. The root family
  // picks omega: key files fix it (snarkjs keys need snarkjs5, bellman keys generator7).
  static result<basic_evaluation_domain> create(int log_n, ff::root_family family = ff::root_family::generator7);
  // The domain of size exactly n; invalid_argument unless n is a power of two up to 2^max_log_n.
  static result<basic_evaluation_domain> for_size(uint64_t n, ff::root_family family = ff::root_family::generator7);
  // The smallest domain holding at least n points (n >= 1), as used to pad a, b, c.
  static result<basic_evaluation_domain> covering(uint64_t n, ff::root_family family = ff::root_family::generator7);

  [[nodiscard]] uint64_t size() const { return n_; }
  [[nodiscard]] int log_size() const { return log_n_; }
  [[nodiscard]] ff::root_family family() const { return family_; }
  [[nodiscard]] const Fr& omega() const { return omega_; }
  [[nodiscard]] const Fr& omega_inv() const { return omega_inv_; }
  [[nodiscard]] const Fr& size_inv() const { return size_inv_; }
  [[nodiscard]] const Fr& coset_shift() const { return g_; }
  [[nodiscard]] const Fr& coset_shift_inv() const { return g_inv_; }
  // Z(x) = x^n - 1 vanishes on <omega>; on the coset it is the constant g^n - 1 (never 0, since the
  // generator g is not in <omega>), which is why Groth16 divides by Z there.
  [[nodiscard]] const Fr& vanishing_on_coset() const { return z_coset_; }
  [[nodiscard]] const Fr& vanishing_on_coset_inv() const { return z_coset_inv_; }
  // x^n - 1 at any x.
  [[nodiscard]] Fr evaluate_vanishing(const Fr& x) const { return x.pow(n_) - Fr::one(); }
  // omega^i (i taken mod n).
  [[nodiscard]] Fr element(uint64_t i) const { return omega_.pow(i & (n_ - 1)); }

  // twiddles()[e] = omega^e for e in [0, n/2] (n/2 + 1 entries; the last is -1 when n >= 2).
  // Inverse transforms read omega^-e = -omega^(n/2 - e) from the same table, so one table of
  // 16n bytes serves both directions (4 GiB at 2^28).
  [[nodiscard]] std::span<const Fr> twiddles() const { return twiddles_; }
  // leaf_twiddles()[e] = w_m^e for e in [0, m/2], m = min(n, 2^leaf_log_n), w_m a primitive m-th root.
  [[nodiscard]] std::span<const Fr> leaf_twiddles() const { return leaf_twiddles_; }
  [[nodiscard]] uint64_t leaf_size() const { return leaf_n_; }

 private:
  basic_evaluation_domain() = default;

  uint64_t n_ = 1;
  int log_n_ = 0;
  ff::root_family family_ = ff::root_family::generator7;
  uint64_t leaf_n_ = 1;
  Fr omega_, omega_inv_, size_inv_, g_, g_inv_, z_coset_, z_coset_inv_;
  std::vector<Fr> twiddles_;
  std::vector<Fr> leaf_twiddles_;
};

using evaluation_domain = basic_evaluation_domain<ff::fr>;
namespace bn254 {
using evaluation_domain = basic_evaluation_domain<ff::bn254::fr>;
}  // namespace bn254

}  // namespace pp::poly

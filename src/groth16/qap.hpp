// R1CS -> QAP for Groth16: the domain (with the root family the key was made with), the Lagrange
// basis at tau that setup needs, and witness -> h scalars for either H basis (notes §4.5).
// Both layouts append the input rows A[m + i][i] = 1 (i = 0..n_public), so the domain covers
// m + n_public + 1 rows. Templates over the scalar field (qap.cpp instantiates both curves');
// `qap_domain` is BLS12-381's.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/result.hpp"
#include <type_traits>

#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "poly/domain.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::groth16 {

// Rows of the QAP: constraints plus one input row per public variable and the constant.
template <class Fr>
[[nodiscard]] uint64_t qap_rows(const r1cs::basic_constraint_system<Fr>& cs) {
  return cs.num_constraints() + cs.num_public() + 1;
}

// snarkjs keys are made over the 5^t roots (ffjavascript), bellman/bellperson keys over 7^t.
[[nodiscard]] constexpr ff::root_family root_family_for(h_basis b) {
  return b == h_basis::odd_coset_lagrange ? ff::root_family::snarkjs5 : ff::root_family::generator7;
}

// The evaluation domain <omega_f> of size 2^log_n for a root family f, natural order throughout:
// poly::evaluation_domain built over f's roots, plus the Lagrange basis that setup needs.
template <class Fr>
class basic_qap_domain {
 public:
  using domain_type = poly::basic_evaluation_domain<Fr>;

  static result<basic_qap_domain> create(int log_n, ff::root_family family);
  // The smallest domain holding qap_rows(cs) rows.
  static result<basic_qap_domain> for_circuit(const r1cs::basic_constraint_system<Fr>& cs, ff::root_family family);

  [[nodiscard]] uint64_t size() const { return base_.size(); }
  [[nodiscard]] int log_size() const { return base_.log_size(); }
  [[nodiscard]] ff::root_family family() const { return base_.family(); }
  [[nodiscard]] const Fr& omega() const { return base_.omega(); }  // of the chosen family
  [[nodiscard]] const domain_type& base() const { return base_; }

  // a[i] (coefficients) -> a(omega^j), natural order; a.size() == size().
  status ntt(std::span<Fr> a) const;
  // Evaluations a(omega^j) -> coefficients (1/n included).
  status intt(std::span<Fr> a) const;

  // L_c(tau) for c < n, the Lagrange basis of this domain at tau:
  // L_c(tau) = (tau^n - 1) / n * omega^c / (tau - omega^c), one batch inversion.
  // invalid_argument when tau lies in the domain (then the formula divides by zero).
  result<std::vector<Fr>> lagrange_at(const Fr& tau) const;

 private:
  explicit basic_qap_domain(domain_type base) : base_(std::move(base)) {}

  domain_type base_;
};

// out[j] = scale * x_j / (tau - x_j) with x_j = x0 * s^j, in parallel (one batch inversion per chunk).
// The caller makes sure no x_j equals tau (lagrange_at: tau^n != 1). Used for L_c(tau) and, in the
// snarkjs setup, for the Lagrange basis of the 2n-domain at its odd points.
template <class Fr>
void fill_scaled_lagrange_terms(std::span<std::type_identity_t<Fr>> out, const Fr& tau, const Fr& x0, const Fr& s,
                                const Fr& scale);

// a = A w and b = B w over the QAP rows (input rows included), zero-padded to d.size(); and, when c
// is non-empty, c = C w likewise (the input rows have no B or C terms).
template <class Fr>
status evaluate_qap(const basic_qap_domain<Fr>& d, const r1cs::basic_constraint_system<Fr>& cs,
                    std::span<const std::type_identity_t<Fr>> w, std::span<std::type_identity_t<Fr>> a,
                    std::span<std::type_identity_t<Fr>> b, std::span<std::type_identity_t<Fr>> c);

// The H-query scalars, in place: on entry a, b, c are the QAP evaluations over d (c may be stale for
// odd_coset_lagrange, which uses c = a∘b as snarkjs does; see notes §4.5). On return a[0..count) holds
//  - odd_coset_lagrange: h_j = a(x_j) b(x_j) - (a∘b)(x_j) at x_j = omega_2n^(2j+1) (n scalars, no
//    division: Z = -2 on that coset is folded into the H points);
//  - monomial: the coefficients of h = (A B - C) / Z computed on the coset 7<omega> (n - 1 scalars:
//    deg h <= n - 2).
// b and c are scratch. Returns count.
template <class Fr>
result<std::size_t> compute_h(const basic_qap_domain<Fr>& d, h_basis basis, std::span<std::type_identity_t<Fr>> a,
                              std::span<std::type_identity_t<Fr>> b, std::span<std::type_identity_t<Fr>> c);

using qap_domain = basic_qap_domain<ff::fr>;

}  // namespace pp::groth16

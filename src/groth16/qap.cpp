// qap_domain, evaluate_qap and compute_h, for both curves (orchestration around the poly and r1cs
// layers, which hold the hot loops, so one unit holds both). The odd coset is reached, as in snarkjs, by scaling
// coefficient i by omega_2n^i between the inverse and the forward transform.
#include "groth16/qap.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <string>
#include <vector>

#include "core/status_macros.hpp"
#include "poly/ntt.hpp"
#include "poly/quotient.hpp"
#include "r1cs/spmv.hpp"
#include "r1cs/witness.hpp"

namespace pp::groth16 {

namespace {

template <class F>
void parallel_rows(std::size_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
  });
}

}  // namespace

template <class Fr>
result<basic_qap_domain<Fr>> basic_qap_domain<Fr>::create(int log_n, ff::root_family family) {
  PP_ASSIGN_OR_RETURN(domain_type base, domain_type::create(log_n, family));
  return basic_qap_domain(std::move(base));
}

template <class Fr>
result<basic_qap_domain<Fr>> basic_qap_domain<Fr>::for_circuit(const r1cs::basic_constraint_system<Fr>& cs,
                                                              ff::root_family family) {
  const uint64_t rows = qap_rows(cs);
  int log_n = 0;
  while ((uint64_t{1} << log_n) < rows) ++log_n;
  if (log_n > domain_type::max_log_n) {
    return invalid_argument("circuit needs a domain of 2^" + std::to_string(log_n) + " rows (" +
                            std::to_string(rows) + " QAP rows), more than the maximum 2^" +
                            std::to_string(domain_type::max_log_n));
  }
  return create(log_n, family);
}

template <class Fr>
status basic_qap_domain<Fr>::ntt(std::span<Fr> a) const {
  return poly::ntt(base_, a, poly::ntt_order::nn);
}

template <class Fr>
status basic_qap_domain<Fr>::intt(std::span<Fr> a) const {
  return poly::intt(base_, a, poly::ntt_order::nn);
}

template <class Fr>
void fill_scaled_lagrange_terms(std::span<std::type_identity_t<Fr>> out, const Fr& tau, const Fr& x0, const Fr& s,
                                const Fr& scale) {
  // 4096 terms per chunk: the chunk's pow and inversion (~100 + ~400 muls) stay near 1% of its ~5 muls
  // per term; x and den live in the chunk (64 KiB each), so only out is allocated.
  constexpr std::size_t chunk = 4096;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), chunk), [&](const tbb::blocked_range<std::size_t>& r) {
    const std::size_t len = r.size();
    std::vector<Fr> x(len), den(len), scratch(len);
    Fr xj = x0 * s.pow(static_cast<uint64_t>(r.begin()));
    for (std::size_t i = 0; i < len; ++i, xj *= s) {
      x[i] = xj;
      den[i] = tau - xj;
    }
    ff::batch_inverse(den.data(), scratch.data(), static_cast<int64_t>(len));
    for (std::size_t i = 0; i < len; ++i) out[r.begin() + i] = scale * x[i] * den[i];
  });
}

template <class Fr>
result<std::vector<Fr>> basic_qap_domain<Fr>::lagrange_at(const Fr& tau) const {
  const uint64_t n = size();
  const Fr z = tau.pow(n) - Fr::one();
  if (z.is_zero()) return invalid_argument("tau lies in the evaluation domain (tau^n = 1)");
  std::vector<Fr> out(n);
  fill_scaled_lagrange_terms<Fr>(out, tau, Fr::one(), omega(), z * Fr::from_uint(n).inverse());
  return out;
}

template <class Fr>
status evaluate_qap(const basic_qap_domain<Fr>& d, const r1cs::basic_constraint_system<Fr>& cs,
                    std::span<const std::type_identity_t<Fr>> w, std::span<std::type_identity_t<Fr>> a,
                    std::span<std::type_identity_t<Fr>> b, std::span<std::type_identity_t<Fr>> c) {
  const uint64_t m = cs.num_constraints();
  if (qap_rows(cs) > d.size()) {
    return invalid_argument("circuit has " + std::to_string(qap_rows(cs)) + " QAP rows (" + std::to_string(m) +
                            " constraints + " + std::to_string(cs.num_public() + 1) +
                            " input rows) but the key's domain has " + std::to_string(d.size()));
  }
  if (a.size() != d.size() || b.size() != d.size() || (!c.empty() && c.size() != d.size())) {
    return invalid_argument("evaluate_qap: a, b (and c) must have the domain size " + std::to_string(d.size()));
  }
  PP_RETURN_IF_ERROR(r1cs::check_witness_size<Fr>(cs, w.size()));
  if (c.empty()) {
    PP_RETURN_IF_ERROR(r1cs::spmv<Fr>(cs, r1cs::matrix_id::a, w, a));
    PP_RETURN_IF_ERROR(r1cs::spmv<Fr>(cs, r1cs::matrix_id::b, w, b));
  } else {
    PP_RETURN_IF_ERROR(r1cs::evaluate_abc<Fr>(cs, w, a, b, c));
  }
  // Input rows: A[m + i][i] = 1, B and C empty (already zero from the padding).
  for (uint64_t i = 0; i <= cs.num_public(); ++i) a[m + i] = w[i];
  return ok_status();
}

template <class Fr>
result<std::size_t> compute_h(const basic_qap_domain<Fr>& d, h_basis basis, std::span<std::type_identity_t<Fr>> a,
                              std::span<std::type_identity_t<Fr>> b, std::span<std::type_identity_t<Fr>> c) {
  const uint64_t n = d.size();
  if (a.size() != n || b.size() != n || c.size() != n) {
    return invalid_argument("compute_h: a, b, c must have the domain size " + std::to_string(n));
  }
  if (basis == h_basis::monomial) {
    if (d.family() != ff::root_family::generator7) {
      return invalid_argument("compute_h: the monomial basis needs the 7^t domain");
    }
    PP_RETURN_IF_ERROR(poly::compute_quotient<Fr>(d.base(), a, b, c, poly::quotient_form::coefficients));
    return static_cast<std::size_t>(n - 1);
  }
  // snarkjs (groth16_prove.js): c = a∘b, then each of a, b, c to the odd coset omega_2n<omega_n>:
  // iNTT, coefficient i times omega_2n^i, NTT (poly::evaluations_to_coset: two passes, one table).
  parallel_rows(n, [&](std::size_t i) { c[i] = a[i] * b[i]; });
  const Fr shift = ff::root_of_unity<Fr>(d.log_size() + 1, d.family());
  const std::vector<Fr> table = poly::bit_reversed_powers<Fr>(d.base(), shift, d.base().size_inv());
  for (std::span<Fr> v : {a, b, c}) PP_RETURN_IF_ERROR(poly::evaluations_to_coset<Fr>(d.base(), v, table));
  parallel_rows(n, [&](std::size_t i) { a[i] = a[i] * b[i] - c[i]; });
  return static_cast<std::size_t>(n);
}

#define PP_GROTH16_QAP(Fr)                                                                                       \
  template class basic_qap_domain<Fr>;                                                                           \
  template void fill_scaled_lagrange_terms<Fr>(std::span<Fr>, const Fr&, const Fr&, const Fr&, const Fr&);       \
  template status evaluate_qap<Fr>(const basic_qap_domain<Fr>&, const r1cs::basic_constraint_system<Fr>&,        \
                                   std::span<const Fr>, std::span<Fr>, std::span<Fr>, std::span<Fr>);            \
  template result<std::size_t> compute_h<Fr>(const basic_qap_domain<Fr>&, h_basis, std::span<Fr>, std::span<Fr>, \
                                             std::span<Fr>)
PP_GROTH16_QAP(ff::fr);
PP_GROTH16_QAP(ff::bn254::fr);
#undef PP_GROTH16_QAP

}  // namespace pp::groth16

// The QAP column polynomials at tau, the scalars of the A / B / C key queries: for every variable i,
// M_i(tau) = sum over rows r of M[r][i] * L_r(tau), given L_r(tau) (qap_domain::lagrange_at).
// CSR gives rows; the sum runs over columns, so the entries are first bucketed by column range.
#pragma once
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "r1cs/csr_matrix.hpp"

namespace pp::groth16 {

// out[i] = sum_r m[r][i] * lagrange[r] for i < num_variables (rows of m beyond lagrange.size() are
// an error of the caller: assert). Parallel (oneTBB) and race-free; extra memory 8 bytes per
// non-zero plus one range-width accumulator per thread for ranges that hold a large share of the
// entries (such as the constant's column).
template <class Fr>
std::vector<Fr> column_evaluations(const r1cs::basic_csr_matrix<Fr>& m, std::span<const std::type_identity_t<Fr>> lagrange,
                                   uint64_t num_variables);

namespace reference {
// Serial, row by row.
template <class Fr>
std::vector<Fr> column_evaluations(const r1cs::basic_csr_matrix<Fr>& m, std::span<const std::type_identity_t<Fr>> lagrange,
                                   uint64_t num_variables);
}  // namespace reference

}  // namespace pp::groth16

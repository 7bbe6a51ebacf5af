// The Groth16 quotient h = (A*B - C) / Z, Z = x^n - 1, from a, b, c = A, B, C evaluated on <omega> (the R1CS
// products A·w, B·w, C·w padded to n). A*B - C has degree up to 2n - 2, so it is evaluated on the coset
// g*<omega>, where Z is the nonzero constant g^n - 1 (docs/design.md, "The workload", step 2).
#pragma once
#include <span>
#include <type_traits>

#include "core/status.hpp"
#include "poly/domain.hpp"

namespace pp::poly {

enum class quotient_form {
  coset_evaluations,  // h(g * omega^i), natural order: what snarkjs' zkey H points pair with
  coefficients,       // h_i, natural order: what bellperson's H points pair with
};

// On success a holds h in the requested form; b and c are overwritten (used as scratch).
// All three sizes must equal d.size(). Coset evaluations: 3 inverse + 3 coset NTTs and a pointwise
// (a b - c) / (g^n - 1). Coefficients: 2 inverse + 2 coset NTTs for A and B, the coset iNTT of
// A(gx)B(gx) (P, the polynomial of degree < n equal to A B on the coset) and the plain iNTT of c (C's
// coefficients), then h = (P - C) / (g^n - 1): one NTT fewer than taking C to the coset and back,
// and the same h, because C has degree < n, so its coset iNTT is C itself and the coset iNTT is
// linear. (For an a, b, c with A B - C not a multiple of Z the two forms differ; no proof verifies
// then.)
template <class Fr>
status compute_quotient(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
                        std::span<std::type_identity_t<Fr>> b, std::span<std::type_identity_t<Fr>> c, quotient_form form);

}  // namespace pp::poly

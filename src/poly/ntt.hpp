// Number-theoretic transforms over an evaluation_domain (host, oneTBB): forward, inverse (with
// the 1/n factor), and on the coset g*<omega>, each in four input/output orders. In place; the
// work runs on the caller's oneTBB arena (wrap a call in tbb::task_arena to bound its threads).
// Templates over the scalar field, deduced from the domain; instantiated for both curves
// (poly/<curve>_instances.cpp).
#pragma once
#include <span>
#include <type_traits>
#include <vector>

#include "core/status.hpp"
#include "poly/domain.hpp"

namespace pp::poly {

// Input order then output order: n = natural, r = bit-reversed (see bit_reverse.hpp).
// nr is a decimation-in-frequency pass and rn a decimation-in-time pass, both with no permutation;
// nn and rr add one bit-reversal permutation. Chaining nr then rn (e.g. ntt nr, pointwise work,
// intt rn) round-trips with no permutation at all.
enum class ntt_order { nn, nr, rn, rr };

// "nn", "nr", "rn" or "rr": for messages, test traces and benchmark tables.
constexpr const char* ntt_order_name(ntt_order o) {
  switch (o) {
    case ntt_order::nn: return "nn";
    case ntt_order::nr: return "nr";
    case ntt_order::rn: return "rn";
    case ntt_order::rr: return "rr";
  }
  return "?";
}

// a[i] (coefficients) -> a(omega^i) (evaluations). a.size() must equal d.size().
template <class Fr>
status ntt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
           ntt_order order = ntt_order::nn);
// Evaluations on <omega> -> coefficients (the inverse of ntt, including the 1/n factor).
template <class Fr>
status intt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
            ntt_order order = ntt_order::nn);
// Coefficients -> evaluations a(g * omega^i) on the coset: distribute_powers(a, g), then ntt.
template <class Fr>
status coset_ntt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
                 ntt_order order = ntt_order::nn);
// Coset evaluations -> coefficients: intt, then distribute_powers(a, g^-1) with 1/n folded in.
template <class Fr>
status coset_intt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
                  ntt_order order = ntt_order::nn);

// The table evaluations_to_coset reads: t[j] = c * s^bit_reverse_index(j, log n), the factor of
// coefficient bit_reverse_index(j), which is where a bit-reversed-output inverse NTT leaves it.
template <class Fr>
std::vector<Fr> bit_reversed_powers(const basic_evaluation_domain<Fr>& d, const std::type_identity_t<Fr>& s,
                                    const std::type_identity_t<Fr>& c);

// Evaluations a(omega^i) -> a(s * omega^i) on the coset s<omega>, natural order in and out, in two
// passes with no permutation: the inverse NTT natural -> bit-reversed, whose leaves also multiply
// position j by table[j] while it is in cache, then the forward NTT bit-reversed -> natural.
// table = bit_reversed_powers(d, s, d.size_inv()), built once for any number of vectors;
// invalid_argument unless a and table have the domain size.
template <class Fr>
status evaluations_to_coset(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
                            std::span<const std::type_identity_t<Fr>> table);

}  // namespace pp::poly

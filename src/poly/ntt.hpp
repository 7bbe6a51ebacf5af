// Number-theoretic transforms over an evaluation_domain (host, oneTBB): forward, inverse (with
// the 1/n factor), and on the coset g*<omega>, each in four input/output orders. In place; the
// work runs on the caller's oneTBB arena (wrap a call in tbb::task_arena to bound its threads).
#pragma once
#include <span>
#include <vector>

#include "core/status.hpp"
#include "ff/fr.hpp"
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
status ntt(const evaluation_domain& d, std::span<ff::fr> a, ntt_order order = ntt_order::nn);
// Evaluations on <omega> -> coefficients (the inverse of ntt, including the 1/n factor).
status intt(const evaluation_domain& d, std::span<ff::fr> a, ntt_order order = ntt_order::nn);
// Coefficients -> evaluations a(g * omega^i) on the coset: distribute_powers(a, g), then ntt.
status coset_ntt(const evaluation_domain& d, std::span<ff::fr> a, ntt_order order = ntt_order::nn);
// Coset evaluations -> coefficients: intt, then distribute_powers(a, g^-1) with 1/n folded in.
status coset_intt(const evaluation_domain& d, std::span<ff::fr> a, ntt_order order = ntt_order::nn);

// The table evaluations_to_coset reads: t[j] = c * s^bit_reverse_index(j, log n), the factor of
// coefficient bit_reverse_index(j), which is where a bit-reversed-output inverse NTT leaves it.
std::vector<ff::fr> bit_reversed_powers(const evaluation_domain& d, const ff::fr& s, const ff::fr& c);

// Evaluations a(omega^i) -> a(s * omega^i) on the coset s<omega>, natural order in and out, in two
// passes with no permutation: the inverse NTT natural -> bit-reversed, whose leaves also multiply
// position j by table[j] while it is in cache, then the forward NTT bit-reversed -> natural.
// table = bit_reversed_powers(d, s, d.size_inv()), built once for any number of vectors;
// invalid_argument unless a and table have the domain size.
status evaluations_to_coset(const evaluation_domain& d, std::span<ff::fr> a, std::span<const ff::fr> table);

}  // namespace pp::poly

// Number-theoretic transforms over an evaluation_domain (host, oneTBB): forward, inverse (with
// the 1/n factor), and on the coset g*<omega>, each in four input/output orders. In place; the
// work runs on the caller's oneTBB arena (wrap a call in tbb::task_arena to bound its threads).
#pragma once
#include <span>

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

}  // namespace pp::poly

// Montgomery's batch inversion with two interleaved product chains, for the host's hot loops (the
// MSM's affine buckets). Host only: nothing under src/cuda includes it.
// ff::batch_inverse (ff/mont_field.hpp) runs one chain acc *= v[i], so each step waits out a whole
// multiplication's latency (~60 cycles for Fp on the dev host's EPYC); here even and odd positions
// keep their own products, so each step's two multiplications are independent and an out-of-order
// core overlaps them. Cost: the same 3M per element, plus 3M and one inversion per call.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ff/fp2.hpp"

namespace pp::ff {
namespace interleaved_detail {

template <class F>
inline constexpr bool is_fp2 = false;
template <class T>
inline constexpr bool is_fp2<fp2_t<T>> = true;

// The two chains over v(i) and s(i) (references to F): v inverted in place, s the scratch.
template <class F, class V, class S>
void invert_chains(int64_t n, V&& v, S&& s) {
  F acc0 = F::one(), acc1 = F::one();
  int64_t i = 0;
  for (; i + 1 < n; i += 2) {
    s(i) = acc0;
    s(i + 1) = acc1;
    if (!v(i).is_zero()) acc0 *= v(i);
    if (!v(i + 1).is_zero()) acc1 *= v(i + 1);
  }
  if (i < n) {  // odd n: the last element joins the even chain
    s(i) = acc0;
    if (!v(i).is_zero()) acc0 *= v(i);
  }
  // Neither product is zero (zeros were skipped), so their product is invertible.
  const F both_inv = (acc0 * acc1).inverse();
  F inv0 = both_inv * acc1;  // 1 / acc0
  F inv1 = both_inv * acc0;  // 1 / acc1
  if (i < n) {
    if (!v(i).is_zero()) {
      const F vi = v(i);
      v(i) = inv0 * s(i);
      inv0 *= vi;
    }
  }
  for (i -= 2; i >= 0; i -= 2) {
    const F v0 = v(i), v1 = v(i + 1);
    if (!v0.is_zero()) {
      v(i) = inv0 * s(i);
      inv0 *= v0;
    }
    if (!v1.is_zero()) {
      v(i + 1) = inv1 * s(i + 1);
      inv1 *= v1;
    }
  }
}

}  // namespace interleaved_detail

// Inverts every element of v in place; zeros stay zero. scratch must hold n elements. Results equal
// ff::batch_inverse's (an inverse is unique). Fp2 goes through the norms, 1/a = conj(a) / N(a) with
// N(a) = a0^2 + a1^2 in Fp (zero only for a = 0): the chains run in Fp (3 Fp products an element
// instead of 3 Fp2 products, 9 Fp ones), plus the norm and two Fp products an element; scratch[i]
// holds the norm (c0) and the chain's prefix (c1).
template <class F>
void interleaved_batch_inverse(F* v, F* scratch, int64_t n) {
  if (n <= 0) return;
  if constexpr (interleaved_detail::is_fp2<F>) {
    using base = typename F::base;
    for (int64_t i = 0; i < n; ++i) scratch[i].c0 = v[i].norm();
    interleaved_detail::invert_chains<base>(
        n, [scratch](int64_t i) -> base& { return scratch[i].c0; },
        [scratch](int64_t i) -> base& { return scratch[i].c1; });
    for (int64_t i = 0; i < n; ++i) {
      const base t = scratch[i].c0;
      v[i] = F{v[i].c0 * t, -(v[i].c1 * t)};
    }
  } else {
    interleaved_detail::invert_chains<F>(
        n, [v](int64_t i) -> F& { return v[i]; }, [scratch](int64_t i) -> F& { return scratch[i]; });
  }
}

}  // namespace pp::ff

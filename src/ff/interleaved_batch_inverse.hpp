// Montgomery's batch inversion with two interleaved product chains, for the host's hot loops (the
// MSM's affine buckets). Host only: nothing under src/cuda includes it.
// ff::batch_inverse (ff/mont_field.hpp) runs one chain acc *= v[i], so each step waits out a whole
// multiplication's latency (~60 cycles for Fp on the dev host's EPYC); here even and odd positions
// keep their own products, so each step's two multiplications are independent and an out-of-order
// core overlaps them. Cost: the same 3M per element, plus 3M and one inversion per call.
#pragma once
#include <cstdint>

namespace pp::ff {

// Inverts every element of v in place; zeros stay zero. scratch must hold n elements. Results equal
// ff::batch_inverse's (an inverse is unique).
template <class F>
void interleaved_batch_inverse(F* v, F* scratch, int64_t n) {
  if (n <= 0) return;
  F acc0 = F::one(), acc1 = F::one();
  int64_t i = 0;
  for (; i + 1 < n; i += 2) {
    scratch[i] = acc0;
    scratch[i + 1] = acc1;
    if (!v[i].is_zero()) acc0 *= v[i];
    if (!v[i + 1].is_zero()) acc1 *= v[i + 1];
  }
  if (i < n) {  // odd n: the last element joins the even chain
    scratch[i] = acc0;
    if (!v[i].is_zero()) acc0 *= v[i];
  }
  // Neither product is zero (zeros were skipped), so their product is invertible.
  const F both_inv = (acc0 * acc1).inverse();
  F inv0 = both_inv * acc1;  // 1 / acc0
  F inv1 = both_inv * acc0;  // 1 / acc1
  if (i < n) {
    if (!v[i].is_zero()) {
      const F vi = v[i];
      v[i] = inv0 * scratch[i];
      inv0 *= vi;
    }
  }
  for (i -= 2; i >= 0; i -= 2) {
    const F v0 = v[i], v1 = v[i + 1];
    if (!v0.is_zero()) {
      v[i] = inv0 * scratch[i];
      inv0 *= v0;
    }
    if (!v1.is_zero()) {
      v[i + 1] = inv1 * scratch[i + 1];
      inv1 *= v1;
    }
  }
}

}  // namespace pp::ff

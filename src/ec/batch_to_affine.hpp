// Host batch conversion to affine: one field inversion for n points (Montgomery's trick,
// ff::batch_inverse) plus ~3 M per point for the trick and 3-4 M per point for the coordinates.
#pragma once
#include <cstddef>
#include <vector>

#include "ec/xyzz.hpp"

namespace pp::ec {

// out[i] = to_affine(in[i]) for i < n; infinity maps to the stored infinity (0, 0).
template <class Curve>
void batch_to_affine(const jacobian<Curve>* in, affine<Curve>* out, std::size_t n) {
  using F = typename Curve::field;
  std::vector<F> zi(n), scratch(n);
  for (std::size_t i = 0; i < n; ++i) zi[i] = in[i].z;
  ff::batch_inverse(zi.data(), scratch.data(), static_cast<int64_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (is_infinity(in[i])) {
      out[i] = affine<Curve>::infinity();
      continue;
    }
    const F zi2 = zi[i].sqr();
    out[i] = affine<Curve>{in[i].x * zi2, in[i].y * zi2 * zi[i]};
  }
}

// Same for xyzz: inverts ZZ*ZZZ per point, then 1/ZZ = ZZZ/(ZZ ZZZ) and 1/ZZZ = ZZ/(ZZ ZZZ).
template <class Curve>
void batch_to_affine(const xyzz<Curve>* in, affine<Curve>* out, std::size_t n) {
  using F = typename Curve::field;
  std::vector<F> inv(n), scratch(n);
  for (std::size_t i = 0; i < n; ++i) inv[i] = in[i].zz * in[i].zzz;
  ff::batch_inverse(inv.data(), scratch.data(), static_cast<int64_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (is_infinity(in[i])) {
      out[i] = affine<Curve>::infinity();
      continue;
    }
    out[i] = affine<Curve>{in[i].x * (inv[i] * in[i].zzz), in[i].y * (inv[i] * in[i].zz)};
  }
}

}  // namespace pp::ec

// Host NTT: cache-blocked radix-2 (DIF for natural input, DIT for bit-reversed input), parallel
// with oneTBB. Stage algebra: Cooley-Tukey / Gentleman-Sande (Chu & George, "Inside the FFT Black
// Box", ch. 4-5); blocking: the radix-2^r passes of Bailey's four-step FFT ("FFTs in external or
// hierarchical memory", 1990), so a 2^22 transform makes 3 passes over memory instead of 22.
// Included only by the instantiation files (poly/<curve>_instances.cpp).
#pragma once
#include "poly/ntt.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "poly/bit_reverse.hpp"
#include "poly/powers_impl.hpp"

namespace pp::poly {
namespace ntt_detail {

// Up to 2^6 stages per memory pass: a 64-element (2 KiB) buffer per task stays in L1, and 2^27
// (15 stages above the leaf) needs 3 passes.
constexpr int max_pass_log = 6;

// Twiddle lookup for one direction. Forward reads w^e = tw[e]. Inverse needs w^-e = -w^(n/2 - e)
// (w^(n/2) = -1), i.e. tw[n/2 - e] negated; the butterflies absorb the sign by swapping an add and
// a subtract, so the inverse costs exactly what the forward costs.
template <class Fr, bool Inverse>
struct twiddle_view {
  const Fr* tw;
  uint64_t half;  // n/2 for the table's own n
  const Fr& operator()(uint64_t e) const { return Inverse ? tw[half - e] : tw[e]; }
};

// Gentleman-Sande (DIF) butterfly: (u, v) -> (u + v, (u - v) * w^e).
template <bool Inverse, class Fr>
inline void dif_butterfly(Fr& u, Fr& v, const Fr& t) {
  const Fr s = u + v;
  v = Inverse ? (v - u) * t : (u - v) * t;
  u = s;
}

// Cooley-Tukey (DIT) butterfly: (u, v) -> (u + v * w^e, u - v * w^e).
template <bool Inverse, class Fr>
inline void dit_butterfly(Fr& u, Fr& v, const Fr& t) {
  const Fr p = v * t;
  v = Inverse ? u + p : u - p;
  u = Inverse ? u - p : u + p;
}

template <class Fr>
struct plan {
  const basic_evaluation_domain<Fr>& d;
  const Fr* scale;  // multiplies every element once (inside a leaf, while it is in cache); may be null
  // Or, per element: a[i] *= scale_table[i - origin] (inside a leaf); may be null.
  const Fr* scale_table = nullptr;
  const Fr* origin = nullptr;  // a.data() of the whole transform
};

// Applies the plan's scaling to the block a[0, m).
template <class Fr>
inline void scale_block(const plan<Fr>& p, Fr* a, uint64_t m) {
  if (p.scale) {
    for (uint64_t i = 0; i < m; ++i) a[i] *= *p.scale;
  } else if (p.scale_table) {
    const Fr* t = p.scale_table + (a - p.origin);
    for (uint64_t i = 0; i < m; ++i) a[i] *= t[i];
  }
}

// All stages of a block of size 2^lm <= leaf size, in place, DIF order (natural -> bit-reversed).
template <bool Inverse, class Fr>
void leaf_dif(const plan<Fr>& p, Fr* a, int lm) {
  const uint64_t m = uint64_t{1} << lm;
  const uint64_t leaf_n = p.d.leaf_size();
  const twiddle_view<Fr, Inverse> w{p.d.leaf_twiddles().data(), leaf_n / 2};
  for (uint64_t h = m / 2; h >= 2; h /= 2) {
    const uint64_t stride = leaf_n / (2 * h);  // w_{2h}^q = w_leaf^(q * stride)
    for (uint64_t b = 0; b < m; b += 2 * h) {
      for (uint64_t q = 0; q < h; ++q) dif_butterfly<Inverse>(a[b + q], a[b + q + h], w(q * stride));
    }
  }
  if (m >= 2) {  // last stage: every twiddle is w^0 = 1
    for (uint64_t b = 0; b < m; b += 2) {
      const Fr s = a[b] + a[b + 1];
      a[b + 1] = a[b] - a[b + 1];
      a[b] = s;
    }
  }
  scale_block(p, a, m);
}

// All stages of a block of size 2^lm <= leaf size, in place, DIT order (bit-reversed -> natural).
template <bool Inverse, class Fr>
void leaf_dit(const plan<Fr>& p, Fr* a, int lm) {
  const uint64_t m = uint64_t{1} << lm;
  const uint64_t leaf_n = p.d.leaf_size();
  const twiddle_view<Fr, Inverse> w{p.d.leaf_twiddles().data(), leaf_n / 2};
  scale_block(p, a, m);
  if (m >= 2) {
    for (uint64_t b = 0; b < m; b += 2) {
      const Fr s = a[b] + a[b + 1];
      a[b + 1] = a[b] - a[b + 1];
      a[b] = s;
    }
  }
  for (uint64_t h = 2; h < m; h *= 2) {
    const uint64_t stride = leaf_n / (2 * h);
    for (uint64_t b = 0; b < m; b += 2 * h) {
      for (uint64_t q = 0; q < h; ++q) dit_butterfly<Inverse>(a[b + q], a[b + q + h], w(q * stride));
    }
  }
}

// How many stages the next pass over a block of size 2^lm takes: the stages above the leaf,
// split evenly into passes of at most max_pass_log.
inline int pass_log(int lm) {
  const int above = lm - evaluation_domain::leaf_log_n;
  const int passes = (above + max_pass_log - 1) / max_pass_log;
  return (above + passes - 1) / passes;
}

// One pass: the top r stages of the block a[0, 2^lm), DIF or DIT, over the big table.
template <bool Inverse, bool Dif, class Fr>
void top_pass(const plan<Fr>& p, Fr* a, int lm, int r) {
  const uint64_t big_l = uint64_t{1} << (lm - r);  // L: stride between gathered elements
  const int radix = 1 << r;
  // Element x = i + j*L sits at position i + (j mod 2h)*L of its size-(2h*L) sub-block at the stage
  // with buffer distance h; that sub-block's root is w_n^(n / (2h*L)), so the exponent into the
  // table of w_n is (i + jj*L) << (log n - lm + t) for stage t.
  const int base_shift = p.d.log_size() - lm;
  const twiddle_view<Fr, Inverse> w{p.d.twiddles().data(), p.d.size() / 2};
  // ~4096 butterflies per task: enough to amortise scheduling, small enough to balance.
  const uint64_t grain = std::max<uint64_t>(1, 8192 / (uint64_t(r) * radix));
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, big_l, grain), [&](const tbb::blocked_range<uint64_t>& range) {
    Fr buf[1 << max_pass_log];
    for (uint64_t i = range.begin(); i < range.end(); ++i) {
      for (int j = 0; j < radix; ++j) buf[j] = a[i + j * big_l];
      for (int s = 0; s < r; ++s) {
        const int t = Dif ? s : r - 1 - s;  // DIT runs the same stages in reverse
        const int h = radix >> (t + 1);
        const int shift = base_shift + t;
        for (int b = 0; b < radix; b += 2 * h) {
          for (int jj = 0; jj < h; ++jj) {
            const Fr& tw = w((i + uint64_t(jj) * big_l) << shift);
            if constexpr (Dif) {
              dif_butterfly<Inverse>(buf[b + jj], buf[b + jj + h], tw);
            } else {
              dit_butterfly<Inverse>(buf[b + jj], buf[b + jj + h], tw);
            }
          }
        }
      }
      for (int j = 0; j < radix; ++j) a[i + j * big_l] = buf[j];
    }
  });
}

// A block of size 2^lm above the leaf size first runs its top r stages as one pass (top_pass:
// for each i < L = 2^(lm-r) the 2^r elements a[i + j*L] are gathered, taken through r stages in a
// buffer and written back); then each of its 2^r contiguous blocks of size L is an independent
// transform of size L, recursively, until blocks fit the leaf (all stages in cache).
template <bool Inverse, class Fr>
void dif(const plan<Fr>& p, Fr* a, int lm) {
  if (lm <= evaluation_domain::leaf_log_n) return leaf_dif<Inverse>(p, a, lm);
  const int r = pass_log(lm);
  top_pass<Inverse, true>(p, a, lm, r);
  const uint64_t big_l = uint64_t{1} << (lm - r);
  tbb::parallel_for(0, 1 << r, [&](int j) { dif<Inverse>(p, a + j * big_l, lm - r); });
}

// dif's schedule mirrored: the leaves first, then the top passes with the stages in reverse order.
template <bool Inverse, class Fr>
void dit(const plan<Fr>& p, Fr* a, int lm) {
  if (lm <= evaluation_domain::leaf_log_n) return leaf_dit<Inverse>(p, a, lm);
  const int r = pass_log(lm);
  const uint64_t big_l = uint64_t{1} << (lm - r);
  tbb::parallel_for(0, 1 << r, [&](int j) { dit<Inverse>(p, a + j * big_l, lm - r); });
  top_pass<Inverse, false>(p, a, lm, r);
}

template <class Fr>
status check_size(const basic_evaluation_domain<Fr>& d, std::span<const Fr> a, const char* what) {
  if (a.size() != d.size()) {
    return invalid_argument(std::string(what) + ": vector size must equal the domain size " + std::to_string(d.size()) +
                            ", got " + std::to_string(a.size()));
  }
  return ok_status();
}

inline bool input_reversed(ntt_order o) { return o == ntt_order::rn || o == ntt_order::rr; }
inline bool output_reversed(ntt_order o) { return o == ntt_order::nr || o == ntt_order::rr; }

// The transform in any order, forward or inverse; scale (may be null) multiplies every element.
template <bool Inverse, class Fr>
void transform(const basic_evaluation_domain<Fr>& d, std::span<Fr> a, ntt_order order, const Fr* scale) {
  const plan<Fr> p{d, scale, nullptr, a.data()};
  const int lm = d.log_size();
  switch (order) {
    case ntt_order::nr:
      dif<Inverse>(p, a.data(), lm);
      break;
    case ntt_order::rn:
      dit<Inverse>(p, a.data(), lm);
      break;
    case ntt_order::nn:
      dif<Inverse>(p, a.data(), lm);
      bit_reverse_permute(a).ignore();  // size checked by the caller
      break;
    case ntt_order::rr:
      bit_reverse_permute(a).ignore();
      dif<Inverse>(p, a.data(), lm);
      break;
  }
}

}  // namespace ntt_detail

template <class Fr>
std::vector<Fr> bit_reversed_powers(const basic_evaluation_domain<Fr>& d, const std::type_identity_t<Fr>& s,
                                    const std::type_identity_t<Fr>& c) {
  std::vector<Fr> t(d.size());
  fill_powers<Fr>(t, s, c);
  bit_reverse_permute(t).ignore();  // the domain size: a power of two
  return t;
}

template <class Fr>
status evaluations_to_coset(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
                            std::span<const std::type_identity_t<Fr>> table) {
  using namespace ntt_detail;
  if (status s = check_size<Fr>(d, a, "evaluations_to_coset"); !s.ok()) return s;
  if (table.size() != d.size()) {
    return invalid_argument("evaluations_to_coset: the shift table must have the domain size " +
                            std::to_string(d.size()) + ", got " + std::to_string(table.size()));
  }
  dif<true>(plan<Fr>{d, nullptr, table.data(), a.data()}, a.data(), d.log_size());
  dit<false>(plan<Fr>{d, nullptr, nullptr, a.data()}, a.data(), d.log_size());
  return ok_status();
}

template <class Fr>
status ntt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a, ntt_order order) {
  using namespace ntt_detail;
  if (status s = check_size<Fr>(d, a, "ntt"); !s.ok()) return s;
  transform<false, Fr>(d, a, order, nullptr);
  return ok_status();
}

template <class Fr>
status intt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a, ntt_order order) {
  using namespace ntt_detail;
  if (status s = check_size<Fr>(d, a, "intt"); !s.ok()) return s;
  transform<true, Fr>(d, a, order, &d.size_inv());
  return ok_status();
}

template <class Fr>
status coset_ntt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a, ntt_order order) {
  using namespace ntt_detail;
  if (status s = check_size<Fr>(d, a, "coset_ntt"); !s.ok()) return s;
  // The shift needs coefficients in natural order (element i times g^i).
  if (input_reversed(order)) bit_reverse_permute(a).ignore();
  distribute_powers<Fr>(a, d.coset_shift());
  transform<false, Fr>(d, a, output_reversed(order) ? ntt_order::nr : ntt_order::nn, nullptr);
  return ok_status();
}

template <class Fr>
status coset_intt(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a, ntt_order order) {
  using namespace ntt_detail;
  if (status s = check_size<Fr>(d, a, "coset_intt"); !s.ok()) return s;
  transform<true, Fr>(d, a, input_reversed(order) ? ntt_order::rn : ntt_order::nn, nullptr);
  distribute_powers<Fr>(a, d.coset_shift_inv(), d.size_inv());
  if (output_reversed(order)) bit_reverse_permute(a).ignore();
  return ok_status();
}

}  // namespace pp::poly

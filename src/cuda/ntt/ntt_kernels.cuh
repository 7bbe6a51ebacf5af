// Kernels of the GPU NTT over a scalar field Fr, templated on it (either curve's; nvcc only): one launch per
// pass of ntt_plan, each running r radix-2 stages of a 2^tile_log-element tile. A thread holds 2^T elements
// in registers and runs up to T stages on them (a radix-2^T round; T = 3 or 2, the plan's elements_log);
// rounds exchange through shared memory. T = 2 halves the registers a thread needs, so more warps hide the
// latency of the multiply's carry chains, at the price of more rounds through shared memory. Stage algebra as
// the host NTT (src/poly/ntt.cpp): Gentleman-Sande (DIF) for natural input, Cooley-Tukey (DIT) for
// bit-reversed input; twiddles w^e read from the resident table of n/2 + 1 powers.
#pragma once
#include <cstdint>

#include "cuda/ff/fr_vector_access.cuh"
#include "cuda/plan/ntt_tuning.hpp"

namespace pp::cuda::ntt_detail {

// What multiplies each element in the first pass (on load) or the last pass (on store).
enum class scale_kind : uint32_t { none, constant, table };

// factor(x) = lo[x & (2^lo_log - 1)] * hi[x >> lo_log] for the natural index x of the element
// (coefficient index for coset shifts): g^x on load, g^-x / n on store.
template <class Fr>
struct scale_spec {
  scale_kind kind = scale_kind::none;
  bool on_load = false;  // else on store
  Fr constant{};
  const Fr* lo = nullptr;
  const Fr* hi = nullptr;
  uint32_t lo_log = 0;
};

template <class Fr>
struct pass_args {
  Fr* data;
  // Out of place, natural order (DIF only): the last pass writes element pos to out[rev(pos)]
  // instead of data[pos], and takes its tiles in bit-reversed order so that the blocks running
  // together write neighbouring sectors. nullptr: in place.
  Fr* out;
  const Fr* tw;  // tw[e] = w^e, e in [0, n/2]
  uint32_t log_n;
  uint32_t s0, r, log_c, log_l;  // see ntt_pass; log_l = log_n - s0 - r
  bool first, last;              // first / last pass executed (where load / store scaling applies)
  scale_spec<Fr> scale;
};

// Shared memory holds the tile planar (word w of element e at w*E + swz(e)), so a warp touching 32
// elements touches 32 banks. swz XORs bits T..T+4 of e into bits 0..4: conflict-free for every lane
// pattern the rounds produce (lanes = the five lowest thread bits around a T-bit register run;
// checked exhaustively for T = 2, 3 and tiles 2^8..2^11).
template <int T>
__device__ __forceinline__ uint32_t swz(uint32_t e) {
  return e ^ ((e >> T) & 31u);
}

template <int T, class Fr>
__device__ __forceinline__ void smem_store(uint32_t* s, uint32_t big_e, uint32_t e, const Fr& v) {
  const uint32_t p = swz<T>(e);
PP_UNROLL
  for (int w = 0; w < 4; ++w) {
    s[(2 * w) * big_e + p] = uint32_t(v.l[w]);
    s[(2 * w + 1) * big_e + p] = uint32_t(v.l[w] >> 32);
  }
}
template <int T, class Fr>
__device__ __forceinline__ Fr smem_load(const uint32_t* s, uint32_t big_e, uint32_t e) {
  const uint32_t p = swz<T>(e);
  Fr v;
  PP_UNROLL
  for (int w = 0; w < 4; ++w) v.l[w] = uint64_t(s[(2 * w) * big_e + p]) | (uint64_t(s[(2 * w + 1) * big_e + p]) << 32);
  return v;
}

__device__ __forceinline__ uint32_t reverse_bits(uint32_t x, uint32_t log_n) {
  return log_n == 0 ? 0 : __brev(x) >> (32 - log_n);
}

template <class Fr>
__device__ __forceinline__ Fr scale_factor(const scale_spec<Fr>& s, uint32_t x) {
  if (s.kind == scale_kind::constant) return s.constant;
  return ldg_fr(s.lo + (x & ((1u << s.lo_log) - 1))) * ldg_fr(s.hi + (x >> s.lo_log));
}

// Twiddle for exponent e: forward w^e = tw[e]; inverse -w^-e = tw[n/2 - e] (w^(n/2) = -1), whose
// sign the butterflies absorb by swapping an add and a subtract (as the host NTT does).
template <bool Inverse, class Fr>
__device__ __forceinline__ Fr twiddle(const Fr* tw, uint32_t half, uint32_t e) {
  return ldg_fr(tw + (Inverse ? half - e : e));
}

// DIF butterfly (u, v) -> (u + v, (u - v) w), w the twiddle of exponent e; for e == 0 the product
// is skipped (w = 1, or -1 with the inverse sign swap: both give u - v).
template <bool Inverse, class Fr>
__device__ __forceinline__ void dif_butterfly(Fr& u, Fr& v, const Fr& w, uint32_t e) {
  const Fr s = u + v;
  if (e == 0) {
    v = u - v;
  } else {
    v = Inverse ? (v - u) * w : (u - v) * w;
  }
  u = s;
}

// DIT butterfly (u, v) -> (u + v w, u - v w); e == 0 as above.
template <bool Inverse, class Fr>
__device__ __forceinline__ void dit_butterfly(Fr& u, Fr& v, const Fr& w, uint32_t e) {
  if (e == 0) {
    const Fr s = u + v;
    v = u - v;
    u = s;
  } else {
    const Fr p = v * w;
    v = Inverse ? u + p : u - p;
    u = Inverse ? u - p : u + p;
  }
}

template <bool Dif, bool Inverse, class Fr>
__device__ __forceinline__ void butterfly(Fr& u, Fr& v, const Fr& w, uint32_t e) {
  if constexpr (Dif) {
    dif_butterfly<Inverse>(u, v, w, e);
  } else {
    dit_butterfly<Inverse>(u, v, w, e);
  }
}

// One pass. Block = one tile of E = 2^(r + log_c) elements, E/2^T threads. Tile element e = j*C + c
// (row j < 2^r, column c < C) is global element b*2^(log_n - s0) + j*L + i for group g0 + c = b*L + i.
// Rounds take the stage bits (row bits) T at a time, top first for DIF, bottom first for DIT; a
// round's register run is the T-bit run of e holding its stage bits, and the thread id fills the
// other bits from the bottom, so lanes read consecutive elements wherever possible.
// R: the register cap of ntt_kernel_shape<T, R> (0: the shape's default). Ahead: a stage loads all
// its twiddles before its butterflies (their loads in flight together), else each just before its
// butterfly (2^(T-1) - 1 fewer Fr live: what a 64-register cap has room for).
template <bool Dif, bool Inverse, int T, int R, bool Ahead, class Fr>
__global__ void __launch_bounds__(ntt_kernel_shape<T, R>::max_threads, ntt_kernel_shape<T, R>::min_blocks)
    ntt_pass_kernel(const pass_args<Fr> a) {
  constexpr int ne = 1 << T;   // elements per thread
  constexpr int nb = ne / 2;   // butterflies per stage
  static_assert(Ahead || T == 2, "just-in-time twiddles reuse the previous butterfly's: two per stage only");
  extern __shared__ uint32_t smem[];
  const uint32_t log_e = a.r + a.log_c;
  const uint32_t big_e = 1u << log_e;
  const uint32_t c_mask = (1u << a.log_c) - 1;
  const uint32_t l_mask = (1u << a.log_l) - 1;
  const uint32_t half = (1u << a.log_n) >> 1;
  const bool scatter = Dif && a.last && a.out != nullptr;
  const uint32_t tile = scatter ? reverse_bits(blockIdx.x, a.log_n - log_e) : blockIdx.x;
  const uint64_t g0 = uint64_t(tile) << a.log_c;
  const uint32_t tid = threadIdx.x;
  const int n_rounds = (int(a.r) + T - 1) / T;

  Fr x[ne];
  for (int q = 0; q < n_rounds; ++q) {
    const int round = Dif ? q : n_rounds - 1 - q;
    const int hi = int(a.r) - T * round;  // stage (row) bits [lo, hi)
    const int lo = hi - T > 0 ? hi - T : 0;
    const uint32_t run = min(a.log_c + uint32_t(lo), log_e - T);
    const uint32_t t_low = tid & ((1u << run) - 1);
    const uint32_t t_high = (tid >> run) << (run + T);

    // Load: global memory in the first round (with the load-side scaling), shared memory after.
PP_UNROLL
    for (int m = 0; m < ne; ++m) {
      const uint32_t e = t_low | (uint32_t(m) << run) | t_high;
      if (q == 0) {
        const uint64_t g = g0 + (e & c_mask);
        const uint64_t pos = ((g >> a.log_l) << (a.log_l + a.r)) | (uint64_t(e >> a.log_c) << a.log_l) | (g & l_mask);
        x[m] = load_fr(a.data + pos);
        if (a.first && a.scale.on_load && a.scale.kind != scale_kind::none) {
          const uint32_t xn = Dif ? uint32_t(pos) : reverse_bits(uint32_t(pos), a.log_n);
          x[m] = x[m] * scale_factor(a.scale, xn);
        }
      } else {
        x[m] = smem_load<T, Fr>(smem, big_e, e);
      }
    }

    // Stages: register bit qb is row bit pj = run + qb - log_c; DIF runs them high to low.
PP_UNROLL
    for (int s = 0; s < T; ++s) {
      const int qb = Dif ? T - 1 - s : s;
      const int pj = int(run) + qb - int(a.log_c);
      if (pj < lo || pj >= hi) continue;
      const uint32_t t = a.log_n - 1 - a.log_l - uint32_t(pj);
      const uint32_t j_mask = (1u << pj) - 1;
      // Ahead: the twiddles first, so their loads are in flight together. When the register run lies in
      // the row bits, register bits above qb are row bits above the stage, which the exponent masks
      // off: butterflies k and k & (2^qb - 1) share a twiddle (T = 3: 4, 2, 1 distinct per stage).
      const bool shared = run >= a.log_c;
      if constexpr (!Ahead) {
        // One twiddle live at a time; a butterfly that shares its twiddle keeps the previous one.
        uint32_t exp = 0;
        Fr w{};
        PP_UNROLL
        for (int k = 0; k < nb; ++k) {
          const int m = ((k >> qb) << (qb + 1)) | (k & ((1 << qb) - 1));
          if (!(shared && (k >> qb) != 0)) {
            const uint32_t e = t_low | (uint32_t(m) << run) | t_high;
            const uint32_t i = uint32_t((g0 + (e & c_mask)) & l_mask);
            exp = ((((e >> a.log_c) & j_mask) << a.log_l) | i) << t;
            w = exp != 0 ? twiddle<Inverse>(a.tw, half, exp) : Fr{};
          }
          butterfly<Dif, Inverse>(x[m], x[m | (1 << qb)], w, exp);
        }
      } else {
        uint32_t exps[nb];
        Fr w[nb];
        PP_UNROLL
        for (int k = 0; k < nb; ++k) {
          if (shared && (k >> qb) != 0) {
            exps[k] = exps[k & ((1 << qb) - 1)];
            w[k] = w[k & ((1 << qb) - 1)];
            continue;
          }
          const int m = ((k >> qb) << (qb + 1)) | (k & ((1 << qb) - 1));  // k with a 0 inserted at bit qb
          const uint32_t e = t_low | (uint32_t(m) << run) | t_high;
          const uint32_t i = uint32_t((g0 + (e & c_mask)) & l_mask);
          exps[k] = ((((e >> a.log_c) & j_mask) << a.log_l) | i) << t;
          w[k] = exps[k] != 0 ? twiddle<Inverse>(a.tw, half, exps[k]) : Fr{};
        }
PP_UNROLL
        for (int k = 0; k < nb; ++k) {
          const int m = ((k >> qb) << (qb + 1)) | (k & ((1 << qb) - 1));
          butterfly<Dif, Inverse>(x[m], x[m | (1 << qb)], w[k], exps[k]);
        }
      }
    }

    // Store: global memory after the last round (with the store-side scaling), shared otherwise.
    if (q == n_rounds - 1) {
PP_UNROLL
      for (int m = 0; m < ne; ++m) {
        const uint32_t e = t_low | (uint32_t(m) << run) | t_high;
        const uint64_t g = g0 + (e & c_mask);
        const uint64_t pos = ((g >> a.log_l) << (a.log_l + a.r)) | (uint64_t(e >> a.log_c) << a.log_l) | (g & l_mask);
        Fr v = x[m];
        if (a.last && !a.scale.on_load && a.scale.kind != scale_kind::none) {
          const uint32_t xn = Dif ? reverse_bits(uint32_t(pos), a.log_n) : uint32_t(pos);
          v = v * scale_factor(a.scale, xn);
        }
        if (scatter) {
          store_fr(a.out + reverse_bits(uint32_t(pos), a.log_n), v);
        } else {
          store_fr(a.data + pos, v);
        }
      }
    } else {
PP_UNROLL
      for (int m = 0; m < ne; ++m) smem_store<T>(smem, big_e, t_low | (uint32_t(m) << run) | t_high, x[m]);
      __syncthreads();
    }
  }
}

// Sizes 2, 4 (below one 8-element thread): one thread runs every stage.
template <bool Dif, bool Inverse, class Fr>
__global__ void ntt_small_kernel(const pass_args<Fr> a) {
  const uint32_t n = 1u << a.log_n;
  const uint32_t half = n >> 1;
  Fr x[4];
  for (uint32_t p = 0; p < n; ++p) {
    x[p] = load_fr(a.data + p);
    if (a.scale.on_load && a.scale.kind != scale_kind::none) {
      x[p] = x[p] * scale_factor(a.scale, Dif ? p : reverse_bits(p, a.log_n));
    }
  }
  for (uint32_t s = 0; s < a.log_n; ++s) {
    const uint32_t t = Dif ? s : a.log_n - 1 - s;
    const uint32_t h = n >> (t + 1);
    for (uint32_t p = 0; p < n; ++p) {
      if (p & h) continue;
      const uint32_t exp = (p & (h - 1)) << t;
      butterfly<Dif, Inverse>(x[p], x[p + h], twiddle<Inverse>(a.tw, half, exp), exp);
    }
  }
  for (uint32_t p = 0; p < n; ++p) {
    Fr v = x[p];
    if (!a.scale.on_load && a.scale.kind != scale_kind::none) {
      v = v * scale_factor(a.scale, Dif ? reverse_bits(p, a.log_n) : p);
    }
    if (Dif && a.out != nullptr) {
      store_fr(a.out + reverse_bits(p, a.log_n), v);
    } else {
      store_fr(a.data + p, v);
    }
  }
}

// In-place bit-reversal permutation: element x swaps with rev(x). An Fr is one 32-byte sector, so
// the scattered half of the accesses moves no extra bytes.
template <class Fr>
__global__ void bit_reverse_kernel(Fr* data, uint32_t log_n) {
  const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >> log_n) return;
  const uint32_t y = reverse_bits(x, log_n);
  if (x < y) {
    const Fr u = load_fr(data + x), v = load_fr(data + y);
    store_fr(data + x, v);
    store_fr(data + y, u);
  }
}

// Tiled in-place bit reversal for log_n >= 8. Write x = hi:mid:lo (4, log_n - 8, 4 bits); then
// rev(x) = rev4(lo):rev(mid):rev4(hi), so the 16 x 16 tile of one mid maps onto the tile of rev(mid),
// transposed with both 4-bit indices reversed. A block (16 x 16 threads) owns the pair
// mid <= rev(mid), reads both tiles in 512-byte rows and writes both back the same way.
template <class Fr>
__global__ void __launch_bounds__(256) bit_reverse_tiled_kernel(Fr* data, uint32_t log_n) {
  __shared__ Fr tile[2][16][16];
  const uint32_t mid = blockIdx.x;
  const uint32_t rmid = reverse_bits(mid, log_n - 8);
  if (mid > rmid) return;
  const uint32_t col = threadIdx.x, row = threadIdx.y;
  const uint32_t hi_shift = log_n - 4;
  const uint32_t mids[2] = {mid, rmid};
PP_UNROLL
  for (int k = 0; k < 2; ++k) tile[k][row][col] = load_fr(data + ((row << hi_shift) | (mids[k] << 4) | col));
  __syncthreads();
  // Row h, column l of tile rev(mids[k]) receives input tile k at [rev4(l)][rev4(h)].
PP_UNROLL
  for (int k = 0; k < 2; ++k) {
    store_fr(data + ((row << hi_shift) | (mids[1 - k] << 4) | col), tile[k][__brev(col) >> 28][__brev(row) >> 28]);
  }
}

}  // namespace pp::cuda::ntt_detail

// GPU NTT over Fr: table upload and the host side of the transforms (pass launches, scaling,
// bit-reversal), instantiating the kernels of ntt_kernels.cuh for both curves' Fr (the end of this file).
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/ntt/ntt_device.hpp"
#include "cuda/ntt/ntt_kernels.cuh"
#include "cuda/plan/ntt_tables.hpp"
#include "poly/powers.hpp"

namespace pp::cuda {
namespace {

using ntt_detail::pass_args;
using ntt_detail::scale_kind;
using ntt_detail::scale_spec;

static_assert(sizeof(ff::fr) == 32 && sizeof(ff::bn254::fr) == 32, "ntt_tables.hpp counts 32 bytes per element");
static_assert(ntt_tile_bytes(0) == 32, "ntt_tuning.hpp counts 32 bytes per element");

// The kernel's largest tile, clamped to what the device allows per block: asking for more fails
// (128 KiB against the 99 KiB of sm_86, sm_89 and sm_120), and plans never use more than this.
template <bool Dif, bool Inverse, int T, int R, bool Ahead, class Fr>
status set_smem_limit(uint64_t device_bytes) {
  const uint64_t bytes = std::min(ntt_tile_bytes(ntt_kernel_shape<T, R>::max_tile_log), device_bytes);
  PP_CUDA_TRY(cudaFuncSetAttribute(ntt_detail::ntt_pass_kernel<Dif, Inverse, T, R, Ahead, Fr>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  return ok_status();
}

template <bool Dif, bool Inverse, int T, int R, bool Ahead, class Fr>
status launch_passes(const ntt_plan& plan, pass_args<Fr> a, cudaStream_t stream) {
  if (plan.count == 0) {
    ntt_detail::ntt_small_kernel<Dif, Inverse, Fr><<<1, 1, 0, stream>>>(a);
    PP_CUDA_TRY(cudaGetLastError());
    return ok_status();
  }
  for (int k = 0; k < plan.count; ++k) {
    const int idx = Dif ? k : plan.count - 1 - k;
    const ntt_pass& p = plan.passes[idx];
    a.s0 = p.s0;
    a.r = p.r;
    a.log_c = p.log_c;
    a.log_l = a.log_n - p.s0 - p.r;
    a.first = k == 0;
    a.last = k == plan.count - 1;
    const int log_e = p.r + p.log_c;
    const uint32_t blocks = uint32_t((uint64_t{1} << a.log_n) >> log_e);
    const uint32_t threads = 1u << (log_e - T);
    const size_t smem = sizeof(Fr) << log_e;
    ntt_detail::ntt_pass_kernel<Dif, Inverse, T, R, Ahead, Fr><<<blocks, threads, smem, stream>>>(a);
    PP_CUDA_TRY(cudaGetLastError());
  }
  return ok_status();
}

template <int T, int R, bool Ahead, class Fr>
status launch(bool dif, bool inverse, const ntt_plan& plan, const pass_args<Fr>& a, cudaStream_t stream) {
  return dif ? (inverse ? launch_passes<true, true, T, R, Ahead>(plan, a, stream)
                        : launch_passes<true, false, T, R, Ahead>(plan, a, stream))
             : (inverse ? launch_passes<false, true, T, R, Ahead>(plan, a, stream)
                        : launch_passes<false, false, T, R, Ahead>(plan, a, stream));
}

// Every compilation of the pass kernel (T, R, Ahead) for the four stage directions.
template <int T, int R, bool Ahead, class Fr>
status set_smem_limits(uint64_t device_bytes) {
  PP_RETURN_IF_ERROR((set_smem_limit<true, false, T, R, Ahead, Fr>(device_bytes)));
  PP_RETURN_IF_ERROR((set_smem_limit<true, true, T, R, Ahead, Fr>(device_bytes)));
  PP_RETURN_IF_ERROR((set_smem_limit<false, false, T, R, Ahead, Fr>(device_bytes)));
  return set_smem_limit<false, true, T, R, Ahead, Fr>(device_bytes);
}

}  // namespace

template <class Fr>
uint64_t basic_device_ntt_domain<Fr>::workspace_bytes(const poly::basic_evaluation_domain<Fr>& d) {
  return ntt_tables_for(d.log_size()).total;
}

template <class Fr>
result<basic_device_ntt_domain<Fr>> basic_device_ntt_domain<Fr>::create(const poly::basic_evaluation_domain<Fr>& d,
                                                                        void* d_workspace, uint64_t bytes,
                                                                        cudaStream_t stream,
                                                                        uint64_t max_shared_bytes) {
  const ntt_table_layout t = ntt_tables_for(d.log_size());
  if (d_workspace == nullptr || reinterpret_cast<uintptr_t>(d_workspace) % ntt_table_align != 0) {
    return invalid_argument("device_ntt_domain: workspace must be non-null and 256-byte aligned");
  }
  if (bytes < t.total) {
    return invalid_argument("device_ntt_domain: workspace of 2^" + std::to_string(d.log_size()) + " needs " +
                            std::to_string(t.total) + " bytes, got " + std::to_string(bytes));
  }
  if (d.twiddles().size() != t.tw) {
    return internal_error("device_ntt_domain: domain twiddle table has " + std::to_string(d.twiddles().size()) +
                          " entries, expected " + std::to_string(t.tw));
  }
  int device = 0, optin = 0;
  PP_CUDA_TRY(cudaGetDevice(&device));
  PP_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const uint64_t device_bytes = uint64_t(optin);
  PP_RETURN_IF_ERROR((set_smem_limits<3, 0, true, Fr>(device_bytes)));
  PP_RETURN_IF_ERROR((set_smem_limits<2, 0, true, Fr>(device_bytes)));
  PP_RETURN_IF_ERROR((set_smem_limits<2, 64, true, Fr>(device_bytes)));
  PP_RETURN_IF_ERROR((set_smem_limits<2, 64, false, Fr>(device_bytes)));

  // Coset tables: g^x = lo[x mod 2^lo_log] * hi[x >> lo_log]; the inverse pair carries 1/n, and so
  // does the second forward hi table (shi: g^x / n = lo * shi, for intt_shifted).
  const Fr g = d.coset_shift(), g_inv = d.coset_shift_inv();
  std::vector<Fr> lo(t.lo), hi(t.hi), ilo(t.lo), ihi(t.hi), shi(t.hi);
  poly::fill_powers(lo, g);
  poly::fill_powers(hi, g.pow(t.lo));
  poly::fill_powers(ilo, g_inv);
  poly::fill_powers(ihi, g_inv.pow(t.lo), d.size_inv());
  poly::fill_powers(shi, g.pow(t.lo), d.size_inv());

  char* base = static_cast<char*>(d_workspace);
  PP_CUDA_TRY(cudaMemcpyAsync(base, d.twiddles().data(), t.tw * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PP_CUDA_TRY(cudaMemcpyAsync(base + t.off_lo, lo.data(), t.lo * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PP_CUDA_TRY(cudaMemcpyAsync(base + t.off_hi, hi.data(), t.hi * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PP_CUDA_TRY(cudaMemcpyAsync(base + t.off_ilo, ilo.data(), t.lo * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PP_CUDA_TRY(cudaMemcpyAsync(base + t.off_ihi, ihi.data(), t.hi * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PP_CUDA_TRY(cudaMemcpyAsync(base + t.off_shi, shi.data(), t.hi * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PP_CUDA_TRY(cudaStreamSynchronize(stream));  // the host vectors die here

  basic_device_ntt_domain dd;
  dd.log_n_ = d.log_size();
  dd.coset_lo_log_ = t.lo_log;
  dd.max_shared_bytes_ = max_shared_bytes == 0 ? device_bytes : std::min(max_shared_bytes, device_bytes);
  dd.size_inv_ = d.size_inv();
  dd.d_twiddles_ = reinterpret_cast<const Fr*>(base);
  dd.d_coset_lo_ = reinterpret_cast<const Fr*>(base + t.off_lo);
  dd.d_coset_hi_ = reinterpret_cast<const Fr*>(base + t.off_hi);
  dd.d_coset_inv_lo_ = reinterpret_cast<const Fr*>(base + t.off_ilo);
  dd.d_coset_inv_hi_ = reinterpret_cast<const Fr*>(base + t.off_ihi);
  dd.d_shift_hi_ = reinterpret_cast<const Fr*>(base + t.off_shi);
  return dd;
}

namespace {

// What multiplies the elements of a kind: 1/n on the inverse's store, the coset tables on the
// coset forward's load and the coset inverse's store.
template <class Fr>
scale_spec<Fr> scale_for(const basic_device_ntt_domain<Fr>& dd, ntt_kind kind) {
  scale_spec<Fr> s;
  switch (kind) {
    case ntt_kind::forward:
      break;
    case ntt_kind::inverse:
      s.kind = scale_kind::constant;
      s.constant = dd.size_inv();
      break;
    case ntt_kind::coset_forward:
    case ntt_kind::coset_inverse: {
      const bool inverse = kind == ntt_kind::coset_inverse;
      s.kind = scale_kind::table;
      s.on_load = !inverse;
      s.lo = dd.coset_lo(inverse);
      s.hi = dd.coset_hi(inverse);
      s.lo_log = uint32_t(dd.coset_lo_log());
      break;
    }
  }
  return s;
}

bool is_inverse(ntt_kind kind) { return kind == ntt_kind::inverse || kind == ntt_kind::coset_inverse; }

// In place (d_out == nullptr) in the asked order, or natural in, natural out into d_out; inverse
// twiddles when `inverse`, elements multiplied as `scale` says.
template <class Fr>
status transform(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, std::type_identity_t<Fr>* d_out,
                 bool inverse, const scale_spec<Fr>& scale, poly::ntt_order order, const ntt_plan& plan,
                 cudaStream_t stream) {
  if (d_a == nullptr) return invalid_argument("ntt: null device pointer");
  if (dd.twiddles() == nullptr) return failed_precondition("ntt: device domain not created");
  if (plan.log_n != dd.log_size()) {
    return invalid_argument("ntt: plan is for 2^" + std::to_string(plan.log_n) + ", domain is 2^" +
                            std::to_string(dd.log_size()));
  }
  if (shared_bytes(plan) > dd.max_shared_bytes()) {
    return invalid_argument("ntt: plan " + to_string(plan) + " needs " + std::to_string(shared_bytes(plan)) +
                            " bytes of shared memory per block, the domain allows " +
                            std::to_string(dd.max_shared_bytes()));
  }
  const int log_n = dd.log_size();
  if (log_n == 0) {  // n = 1: every transform is the identity (1/n = g^0 = 1)
    if (d_out != nullptr) PP_CUDA_TRY(cudaMemcpyAsync(d_out, d_a, sizeof(Fr), cudaMemcpyDeviceToDevice, stream));
    return ok_status();
  }

  const bool in_rev = order == poly::ntt_order::rn || order == poly::ntt_order::rr;
  const bool out_rev = order == poly::ntt_order::nr || order == poly::ntt_order::rr;
  const bool dif = !in_rev;  // DIF: natural -> bit-reversed; DIT: bit-reversed -> natural

  pass_args<Fr> a{};
  a.data = d_a;
  a.out = d_out;
  a.tw = dd.twiddles();
  a.log_n = uint32_t(log_n);
  a.scale = scale;

  if (plan.elements_log == 3) {
    PP_RETURN_IF_ERROR((launch<3, 0, true>(dif, inverse, plan, a, stream)));
  } else if (plan.max_registers != 64) {
    PP_RETURN_IF_ERROR((launch<2, 0, true>(dif, inverse, plan, a, stream)));
  } else if (plan.twiddles_ahead) {
    PP_RETURN_IF_ERROR((launch<2, 64, true>(dif, inverse, plan, a, stream)));
  } else {
    PP_RETURN_IF_ERROR((launch<2, 64, false>(dif, inverse, plan, a, stream)));
  }
  if (d_out == nullptr && out_rev != dif) {  // the algorithm's output order differs from the one asked for
    const uint32_t n = 1u << log_n;
    if (log_n >= 8) {
      ntt_detail::bit_reverse_tiled_kernel<Fr><<<(n >> 8), dim3(16, 16), 0, stream>>>(d_a, uint32_t(log_n));
    } else {
      const uint32_t threads = n < 256 ? n : 256;
      ntt_detail::bit_reverse_kernel<Fr><<<(n + threads - 1) / threads, threads, 0, stream>>>(d_a, uint32_t(log_n));
    }
    PP_CUDA_TRY(cudaGetLastError());
  }
  return ok_status();
}

}  // namespace

template <class Fr>
status run_ntt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, ntt_kind kind,
               poly::ntt_order order, const ntt_plan& plan, cudaStream_t stream) {
  return transform(dd, d_a, nullptr, is_inverse(kind), scale_for(dd, kind), order, plan, stream);
}

template <class Fr>
status run_intt_shifted(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                        const basic_device_shift_powers<Fr>& p, const ntt_plan& plan, cudaStream_t stream) {
  if (p.lo == nullptr || p.hi == nullptr || p.lo_log < 0 || p.lo_log > dd.log_size()) {
    return invalid_argument("intt_shifted: shift tables must be non-null with lo_log in [0, " +
                            std::to_string(dd.log_size()) + "], got lo_log " + std::to_string(p.lo_log));
  }
  scale_spec<Fr> s;
  s.kind = scale_kind::table;
  s.lo = p.lo;
  s.hi = p.hi;
  s.lo_log = uint32_t(p.lo_log);
  return transform(dd, d_a, nullptr, /*inverse=*/true, s, order, plan, stream);
}

template <class Fr>
status run_ntt_into(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_in,
                    std::type_identity_t<Fr>* d_out, ntt_kind kind, const ntt_plan& plan, cudaStream_t stream) {
  if (d_out == nullptr) return invalid_argument("ntt_into: null output pointer");
  const uint64_t bytes = dd.size() * sizeof(Fr);
  const auto* i0 = reinterpret_cast<const char*>(d_in);
  const auto* o0 = reinterpret_cast<const char*>(d_out);
  if (d_in != nullptr && i0 < o0 + bytes && o0 < i0 + bytes) {
    return invalid_argument("ntt_into: input and output overlap (use the in-place transform)");
  }
  return transform(dd, d_in, d_out, is_inverse(kind), scale_for(dd, kind), poly::ntt_order::nn, plan, stream);
}

namespace {
template <class Fr>
status run_default(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, ntt_kind kind,
                   poly::ntt_order order, cudaStream_t s) {
  result<ntt_plan> plan = make_ntt_plan(dd.log_size(), ntt_tuning_sm90, dd.max_shared_bytes());
  if (!plan.ok()) return plan.error();
  return run_ntt(dd, d_a, kind, order, *plan, s);
}
}  // namespace

template <class Fr>
status ntt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
           cudaStream_t s) {
  return run_default(dd, d_a, ntt_kind::forward, order, s);
}
template <class Fr>
status intt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
            cudaStream_t s) {
  return run_default(dd, d_a, ntt_kind::inverse, order, s);
}
template <class Fr>
status coset_ntt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                 cudaStream_t s) {
  return run_default(dd, d_a, ntt_kind::coset_forward, order, s);
}
template <class Fr>
status coset_intt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                  cudaStream_t s) {
  return run_default(dd, d_a, ntt_kind::coset_inverse, order, s);
}

template <class Fr>
status intt_shifted(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                    const basic_device_shift_powers<Fr>& p, cudaStream_t s) {
  result<ntt_plan> plan = make_ntt_plan(dd.log_size(), ntt_tuning_sm90, dd.max_shared_bytes());
  if (!plan.ok()) return plan.error();
  return run_intt_shifted(dd, d_a, order, p, *plan, s);
}

template <class Fr>
status ntt_into(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_in, std::type_identity_t<Fr>* d_out,
                ntt_kind kind, cudaStream_t s) {
  result<ntt_plan> plan = make_ntt_plan(dd.log_size(), ntt_tuning_sm90, dd.max_shared_bytes());
  if (!plan.ok()) return plan.error();
  return run_ntt_into(dd, d_in, d_out, kind, *plan, s);
}

// Both curves' instantiations: the BLS12-381 prover's and BN254's (docs/design.md, "Curve families").
#define PP_NTT_INSTANTIATE(F)                                                                                       \
  template class basic_device_ntt_domain<F>;                                                                        \
  template status ntt(const basic_device_ntt_domain<F>&, F*, poly::ntt_order, cudaStream_t);                        \
  template status intt(const basic_device_ntt_domain<F>&, F*, poly::ntt_order, cudaStream_t);                       \
  template status coset_ntt(const basic_device_ntt_domain<F>&, F*, poly::ntt_order, cudaStream_t);                  \
  template status coset_intt(const basic_device_ntt_domain<F>&, F*, poly::ntt_order, cudaStream_t);                 \
  template status intt_shifted(const basic_device_ntt_domain<F>&, F*, poly::ntt_order,                              \
                               const basic_device_shift_powers<F>&, cudaStream_t);                                  \
  template status ntt_into(const basic_device_ntt_domain<F>&, F*, F*, ntt_kind, cudaStream_t);                      \
  template status run_ntt(const basic_device_ntt_domain<F>&, F*, ntt_kind, poly::ntt_order, const ntt_plan&,        \
                          cudaStream_t);                                                                            \
  template status run_ntt_into(const basic_device_ntt_domain<F>&, F*, F*, ntt_kind, const ntt_plan&, cudaStream_t); \
  template status run_intt_shifted(const basic_device_ntt_domain<F>&, F*, poly::ntt_order,                          \
                                   const basic_device_shift_powers<F>&, const ntt_plan&, cudaStream_t);
PP_NTT_INSTANTIATE(ff::fr)
PP_NTT_INSTANTIATE(ff::bn254::fr)
#undef PP_NTT_INSTANTIATE

}  // namespace pp::cuda

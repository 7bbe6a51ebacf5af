// GPU NTT over a scalar field Fr (BLS12-381's or BN254's, instantiated in ntt_fr.cu; the unqualified
// names are BLS12-381's): forward, inverse (with 1/n), coset forward and coset inverse, in the four
// input/output orders of poly::ntt_order, in place on device memory (or natural order out of
// place: ntt_into), stream-ordered. Results are identical to the host NTT (src/poly/ntt.hpp) on the same
// evaluation_domain. Plain C++ header.
//
// Use: workspace_bytes(d) -> caller allocates -> device_ntt_domain::create(d, ...) once per domain
// (uploads twiddles and coset tables) -> ntt/intt/coset_ntt/coset_intt(dd, d_a, order, stream) any
// number of times, from any stream. The transforms allocate nothing and never synchronize.
// intt_shifted folds a coset shift into the inverse's 1/n: ntt(intt_shifted(a)) = coset_ntt(intt(a)).
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "core/result.hpp"
#include "cuda/plan/ntt_plan.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"

namespace pp::cuda {

// The powers s^x / n of a shift s (x < n) as two device tables: s^x / n = lo[x mod 2^lo_log] *
// hi[x >> lo_log], lo with 2^lo_log entries, hi with n >> lo_log carrying the 1/n. A view.
template <class Fr>
struct basic_device_shift_powers {
  const Fr* lo = nullptr;
  const Fr* hi = nullptr;
  int lo_log = 0;
};

// The resident tables of one evaluation_domain: a view of device memory the caller owns.
template <class Fr>
class basic_device_ntt_domain {
 public:
  // Bytes of device memory create() needs for d: n/2 + 1 twiddles (16n bytes; 2 GiB at 2^27) plus
  // five small coset tables (two-level powers of g and g^-1, and g^x / n's high half).
  static uint64_t workspace_bytes(const poly::basic_evaluation_domain<Fr>& d);

  // Uploads d's tables into d_workspace (>= workspace_bytes(d), 256-byte aligned), ordered on
  // stream, and waits for that stream (setup, not the transform path). Transforms on the domain use
  // at most the current device's dynamic shared memory per block (cudaDevAttrMaxSharedMemoryPerBlockOptin),
  // or max_shared_bytes when that is smaller and not 0 (tests run another card's plans this way).
  static result<basic_device_ntt_domain> create(const poly::basic_evaluation_domain<Fr>& d, void* d_workspace,
                                                uint64_t bytes, cudaStream_t stream, uint64_t max_shared_bytes = 0);

  [[nodiscard]] int log_size() const { return log_n_; }
  [[nodiscard]] uint64_t size() const { return uint64_t{1} << log_n_; }
  [[nodiscard]] const Fr& size_inv() const { return size_inv_; }
  [[nodiscard]] const Fr* twiddles() const { return d_twiddles_; }
  // factor(x) = lo[x mod 2^coset_lo_log] * hi[x >> coset_lo_log]: g^x (forward) or g^-x / n (inverse).
  [[nodiscard]] const Fr* coset_lo(bool inverse) const { return inverse ? d_coset_inv_lo_ : d_coset_lo_; }
  [[nodiscard]] const Fr* coset_hi(bool inverse) const { return inverse ? d_coset_inv_hi_ : d_coset_hi_; }
  [[nodiscard]] int coset_lo_log() const { return coset_lo_log_; }
  // g^x / n for intt_shifted: coset_ntt(intt(a)) = ntt(intt_shifted(a, coset_shift_powers())).
  [[nodiscard]] basic_device_shift_powers<Fr> coset_shift_powers() const {
    return {d_coset_lo_, d_shift_hi_, coset_lo_log_};
  }
  // Shared memory a pass block may use on this domain: plans for it are made against this figure.
  [[nodiscard]] uint64_t max_shared_bytes() const { return max_shared_bytes_; }

 private:
  int log_n_ = 0;
  uint64_t max_shared_bytes_ = 0;
  int coset_lo_log_ = 0;
  Fr size_inv_{};
  const Fr* d_twiddles_ = nullptr;
  const Fr* d_coset_lo_ = nullptr;
  const Fr* d_coset_hi_ = nullptr;
  const Fr* d_coset_inv_lo_ = nullptr;
  const Fr* d_coset_inv_hi_ = nullptr;
  const Fr* d_shift_hi_ = nullptr;
};

using device_shift_powers = basic_device_shift_powers<ff::fr>;
using device_ntt_domain = basic_device_ntt_domain<ff::fr>;

enum class ntt_kind { forward, inverse, coset_forward, coset_inverse };

// The host function each kind mirrors ("ntt", "intt", "coset_ntt", "coset_intt"): for messages,
// test traces and benchmark tables.
constexpr const char* ntt_kind_name(ntt_kind k) {
  switch (k) {
    case ntt_kind::forward: return "ntt";
    case ntt_kind::inverse: return "intt";
    case ntt_kind::coset_forward: return "coset_ntt";
    case ntt_kind::coset_inverse: return "coset_intt";
  }
  return "?";
}

// d_a: dd.size() elements of device memory, transformed in place. The transform needs no workspace.
template <class Fr>
status ntt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
           cudaStream_t stream);
template <class Fr>
status intt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
            cudaStream_t stream);
template <class Fr>
status coset_ntt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                 cudaStream_t stream);
template <class Fr>
status coset_intt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                  cudaStream_t stream);

// intt, then coefficient x times s^x for the s of p: d_a's evaluations over the domain become the
// coefficients of p(s X), ready for ntt to evaluate on the coset s<omega>. The shift costs one
// multiplication per element (forming s^x / n from p's two tables): the 1/n the inverse applies
// anyway takes it along. invalid_argument for null tables or lo_log outside [0, log_n].
template <class Fr>
status intt_shifted(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                    const basic_device_shift_powers<Fr>& p, cudaStream_t stream);

// Natural order in and out, out of place: d_out (dd.size() elements, not overlapping d_in) gets the
// transform of d_in, which serves as scratch and is left clobbered. The last pass writes each
// element straight to its natural position, so there is no bit-reversal pass (the in-place nn
// transform's extra read and write of every element).
template <class Fr>
status ntt_into(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_in, std::type_identity_t<Fr>* d_out,
                ntt_kind kind, cudaStream_t stream);

// Any of the above with an explicit pass plan (make_ntt_plan with another tuning): for benchmarks.
// invalid_argument when a pass's tile needs more shared memory than dd.max_shared_bytes().
template <class Fr>
status run_ntt(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, ntt_kind kind,
               poly::ntt_order order, const ntt_plan& plan, cudaStream_t stream);
template <class Fr>
status run_ntt_into(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_in,
                    std::type_identity_t<Fr>* d_out, ntt_kind kind, const ntt_plan& plan, cudaStream_t stream);
template <class Fr>
status run_intt_shifted(const basic_device_ntt_domain<Fr>& dd, std::type_identity_t<Fr>* d_a, poly::ntt_order order,
                        const basic_device_shift_powers<Fr>& p, const ntt_plan& plan, cudaStream_t stream);

}  // namespace pp::cuda

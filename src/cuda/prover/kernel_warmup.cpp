// kernel_warmup.hpp: tiny MSMs over both curves' G1 and G2 between two cudaMemGetInfo.
#include "cuda/prover/kernel_warmup.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <map>

#include "core/cuda_try.hpp"
#include "core/mutex.hpp"
#include "core/status_macros.hpp"
#include "cuda/msm/msm_device.hpp"
#include "cuda/runtime/cuda_stream.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"

namespace pp::cuda {
namespace {

// Enough points for a window of 2^(8-1) buckets, more than one reduction segment
// (msm_tuning::reduce_segment_log), so that the combine kernels run too.
constexpr uint64_t warm_points = 4096;

struct scratch {
  void* p = nullptr;
  ~scratch() {
    if (p != nullptr) cudaFree(p);
  }
};

template <class Curve>
status warm_curve(cudaStream_t stream) {
  PP_ASSIGN_OR_RETURN(const uint64_t plain_ws, msm_workspace_bytes<Curve>(warm_points));
  PP_ASSIGN_OR_RETURN(const uint64_t split_ws, split_msm_workspace_bytes<Curve>(warm_points));
  const uint64_t ws = (std::max(plain_ws, split_ws) + 255) / 256 * 256;
  using scalar = typename Curve::scalar_field;
  const uint64_t points = warm_points * sizeof(ec::affine<Curve>), scalars = warm_points * sizeof(scalar);
  scratch s;
  PP_CUDA_TRY(cudaMalloc(&s.p, ws + points + scalars));
  char* const base = static_cast<char*>(s.p);
  const auto* d_points = reinterpret_cast<const ec::affine<Curve>*>(base + ws);
  const auto* d_scalars = reinterpret_cast<const scalar*>(base + ws + points);
  // (0, 0) is the point at infinity; bytes of 0x11 make scalars below either curve's r that are
  // neither 0 nor 1.
  PP_CUDA_TRY(cudaMemsetAsync(base + ws, 0, points, stream));
  PP_CUDA_TRY(cudaMemsetAsync(base + ws + points, 0x11, scalars, stream));
  ec::xyzz<Curve> out[2];
  PP_RETURN_IF_ERROR(msm<Curve>(d_points, d_scalars, warm_points, base, ws, &out[0], stream));
  PP_RETURN_IF_ERROR(split_msm<Curve>(d_points, d_scalars, warm_points, base, ws, &out[1], stream));
  PP_CUDA_TRY(cudaStreamSynchronize(stream));
  return ok_status();
}

}  // namespace

result<uint64_t> warm_up_kernels(int device) {
  PP_CUDA_TRY(cudaSetDevice(device));
  PP_CUDA_TRY(cudaDeviceSynchronize());
  size_t free0 = 0, free1 = 0, total = 0;
  PP_CUDA_TRY(cudaMemGetInfo(&free0, &total));
  {
    PP_ASSIGN_OR_RETURN(const cuda_stream stream, cuda_stream::create());
    PP_RETURN_IF_ERROR(warm_curve<ec::g1_curve>(stream));
    PP_RETURN_IF_ERROR(warm_curve<ec::g2_curve>(stream));
    PP_RETURN_IF_ERROR(warm_curve<ec::bn254::g1_curve>(stream));
    PP_RETURN_IF_ERROR(warm_curve<ec::bn254::g2_curve>(stream));
  }  // the stream is gone before the free memory is read again
  PP_CUDA_TRY(cudaDeviceSynchronize());
  PP_CUDA_TRY(cudaMemGetInfo(&free1, &total));
  return free1 < free0 ? uint64_t(free0 - free1) : 0;
}

namespace {
mutex driver_mu;
std::map<int, uint64_t> driver_taken PP_GUARDED_BY(driver_mu);  // device -> its first warm-up's bytes
}  // namespace

result<uint64_t> kernel_driver_bytes(int device) {
  mutex_lock lock(driver_mu);
  if (const auto it = driver_taken.find(device); it != driver_taken.end()) return it->second;
  PP_ASSIGN_OR_RETURN(const uint64_t bytes, warm_up_kernels(device));
  driver_taken[device] = bytes;
  return bytes;
}

}  // namespace pp::cuda

// Definition of run_on_device<Op> (tests only): one thread per element, buffers owned here.
// Included by the *_ops.cu files, which instantiate it for their operations.
#pragma once
#include <cuda_runtime.h>

#include "core/cuda_try.hpp"
#include "device_ops.hpp"

namespace pp::cuda::test {

// Test-only owner of one device allocation; the library itself never allocates in an operator.
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    if (d_ != nullptr) (void)cudaFree(d_);
  }
  status allocate(size_t bytes) {
    PP_CUDA_TRY(cudaMalloc(&d_, bytes));
    return ok_status();
  }
  template <class T>
  T* get() const {
    return static_cast<T*>(d_);
  }

 private:
  void* d_ = nullptr;
};

template <class D>
__global__ void op_kernel(typename D::out_t* d_out, const typename D::a_t* d_a, const typename D::b_t* d_b,
                          int64_t n) {
  const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) d_out[i] = D::apply(d_a[i], d_b[i]);
}

template <op O>
status run_on_device(const typename op_def<O>::a_t* a, const typename op_def<O>::b_t* b,
                     typename op_def<O>::out_t* out, int64_t n) {
  using D = op_def<O>;
  if (n <= 0) return ok_status();
  device_buffer d_a, d_b, d_out;
  const size_t na = sizeof(typename D::a_t) * n, nb = sizeof(typename D::b_t) * n,
               no = sizeof(typename D::out_t) * n;
  if (status s = d_a.allocate(na); !s.ok()) return s;
  if (status s = d_b.allocate(nb); !s.ok()) return s;
  if (status s = d_out.allocate(no); !s.ok()) return s;
  PP_CUDA_TRY(cudaMemcpy(d_a.get<void>(), a, na, cudaMemcpyHostToDevice));
  PP_CUDA_TRY(cudaMemcpy(d_b.get<void>(), b, nb, cudaMemcpyHostToDevice));
  PP_CUDA_TRY(cudaMemset(d_out.get<void>(), 0xa5, no));  // poison: every output must be written
  constexpr int threads = 128;
  const int64_t blocks = (n + threads - 1) / threads;
  op_kernel<D><<<static_cast<unsigned>(blocks), threads>>>(d_out.get<typename D::out_t>(),
                                                           d_a.get<const typename D::a_t>(),
                                                           d_b.get<const typename D::b_t>(), n);
  PP_CUDA_TRY(cudaGetLastError());
  PP_CUDA_TRY(cudaDeviceSynchronize());
  PP_CUDA_TRY(cudaMemcpy(out, d_out.get<void>(), no, cudaMemcpyDeviceToHost));
  return ok_status();
}

#define PP_INSTANTIATE_RUN_ON_DEVICE(id)                                                        \
  template status run_on_device<op::id>(const op_def<op::id>::a_t*, const op_def<op::id>::b_t*, \
                                        op_def<op::id>::out_t*, int64_t);

}  // namespace pp::cuda::test

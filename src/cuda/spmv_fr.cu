// GPU SpMV over Fr: matrix upload and the launch of spmv_kernels.cuh.
#include <string>

#include "core/cuda_try.hpp"
#include "cuda/spmv_device.hpp"
#include "cuda/spmv_kernels.cuh"

namespace pp::cuda {
namespace {

uint64_t pad256(uint64_t b) { return (b + 255) / 256 * 256; }

}  // namespace

result<device_r1cs> upload_r1cs(const compact_r1cs& compact, void* d_region, uint64_t bytes, cudaStream_t stream) {
  if (bytes < compact.device_bytes()) {
    return invalid_argument("upload_r1cs: region of " + std::to_string(bytes) + " bytes, expected at least " +
                            std::to_string(compact.device_bytes()));
  }
  if (reinterpret_cast<uintptr_t>(d_region) % 256 != 0) return invalid_argument("upload_r1cs: region not 256-byte aligned");
  device_r1cs out;
  out.num_constraints = compact.num_constraints;
  out.num_variables = compact.num_variables;
  auto* p = static_cast<std::byte*>(d_region);
  for (int i = 0; i < 3; ++i) {
    const compact_csr& c = compact.m[i];
    device_csr& d = out.m[i];
    d.rows = c.rows;
    d.row_ptr = reinterpret_cast<const uint32_t*>(p);
    if (c.row_ptr.size() * 4 != 0) {
      PP_CUDA_TRY(cudaMemcpyAsync(p, c.row_ptr.data(), c.row_ptr.size() * 4, cudaMemcpyHostToDevice, stream));
    }
    p += pad256(c.row_ptr.size() * 4);
    d.words = reinterpret_cast<const uint32_t*>(p);
    if (c.words.size() * 4 != 0) {
      PP_CUDA_TRY(cudaMemcpyAsync(p, c.words.data(), c.words.size() * 4, cudaMemcpyHostToDevice, stream));
    }
    p += pad256(c.words.size() * 4);
    d.table = reinterpret_cast<const ff::fr*>(p);
    if (c.table.size() * sizeof(ff::fr) != 0) {
      PP_CUDA_TRY(cudaMemcpyAsync(p, c.table.data(), c.table.size() * sizeof(ff::fr), cudaMemcpyHostToDevice, stream));
    }
    p += pad256(c.table.size() * sizeof(ff::fr));
  }
  PP_CUDA_TRY(cudaStreamSynchronize(stream));  // pageable sources: setup only
  return out;
}

status spmv_abc(const device_r1cs& m, const ff::fr* d_w, ff::fr* d_a, ff::fr* d_b, ff::fr* d_c, uint64_t n,
                cudaStream_t stream, const spmv_tuning& tuning) {
  if (n < m.num_constraints) {
    return invalid_argument("spmv_abc: n = " + std::to_string(n) + ", expected at least " +
                            std::to_string(m.num_constraints) + " constraints");
  }
  if (d_a == nullptr || d_b == nullptr || d_c == nullptr || (d_w == nullptr && m.num_variables != 0)) {
    return invalid_argument("spmv_abc: null device buffer");
  }
  if (n == 0) return ok_status();
  const uint64_t threads = uint64_t(tuning.block_threads);
  const uint64_t blocks = (n + threads - 1) / threads;
  if (blocks > 0x7fffffffull || threads == 0 || threads > 1024) {
    return invalid_argument("spmv_abc: n = " + std::to_string(n) + " with " + std::to_string(threads) +
                            " threads per block does not fit one grid");
  }
  spmv_detail::abc_args args{};
  ff::fr* outs[3] = {d_a, d_b, d_c};
  for (int i = 0; i < 3; ++i) {
    args.m[i] = {m.m[i].row_ptr, m.m[i].words, m.m[i].table, outs[i], m.m[i].rows};
  }
  args.w = d_w;
  args.n = n;
  spmv_detail::spmv_abc_kernel<<<dim3(uint32_t(blocks), 3), uint32_t(threads), 0, stream>>>(args);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

status spmv_one(const device_r1cs& m, int which, const ff::fr* d_w, ff::fr* d_out, uint64_t n, cudaStream_t stream,
                const spmv_tuning& tuning) {
  if (which < 0 || which > 2) return invalid_argument("spmv_one: matrix " + std::to_string(which));
  if (n < m.num_constraints) {
    return invalid_argument("spmv_one: n = " + std::to_string(n) + ", expected at least " +
                            std::to_string(m.num_constraints) + " constraints");
  }
  if (d_out == nullptr || (d_w == nullptr && m.num_variables != 0)) return invalid_argument("spmv_one: null buffer");
  if (n == 0) return ok_status();
  const uint64_t threads = uint64_t(tuning.block_threads);
  const uint64_t blocks = (n + threads - 1) / threads;
  if (blocks > 0x7fffffffull || threads == 0 || threads > 1024) {
    return invalid_argument("spmv_one: n = " + std::to_string(n) + " does not fit one grid");
  }
  // The abc kernel with one matrix: grid.y = 1 reads args.m[0].
  spmv_detail::abc_args args{};
  const device_csr& c = m.m[which];
  args.m[0] = {c.row_ptr, c.words, c.table, d_out, c.rows};
  args.w = d_w;
  args.n = n;
  spmv_detail::spmv_abc_kernel<<<dim3(uint32_t(blocks), 1), uint32_t(threads), 0, stream>>>(args);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

}  // namespace pp::cuda

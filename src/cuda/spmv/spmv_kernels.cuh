// Kernels of the GPU SpMV over either curve's Fr (nvcc only): one thread per output row, the three matrices along
// grid.y. Per entry: gather the witness value (32 B), skip zeros, add (+1), subtract (-1), or
// multiply by the table coefficient (skipped when the value is 1), as r1cs::row_dot's fast paths.
// Field addition is exact and canonical, so the order of terms does not change the result.
#pragma once
#include <cstdint>

#include "cuda/ff/fr_vector_access.cuh"
#include "cuda/plan/spmv_matrix.hpp"

namespace pp::cuda::spmv_detail {

template <class Fr>
struct csr_args {
  const uint32_t* row_ptr;
  const uint32_t* words;
  const Fr* table;
  Fr* out;
  uint64_t rows;
};

template <class Fr>
struct abc_args {
  csr_args<Fr> m[3];
  const Fr* w;
  uint64_t n;
};

template <class Fr>
__global__ void spmv_abc_kernel(const abc_args<Fr> args) {
  const uint64_t r = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (r >= args.n) return;
  const csr_args<Fr> m = blockIdx.y == 0 ? args.m[0] : blockIdx.y == 1 ? args.m[1] : args.m[2];
  Fr acc = Fr::zero();
  if (r < m.rows) {
    const uint32_t end = __ldg(m.row_ptr + r + 1);
    for (uint32_t k = __ldg(m.row_ptr + r); k < end; ++k) {
      const uint32_t word = __ldg(m.words + k);
      const uint32_t tag = word >> spmv_col_bits;
      const Fr x = ldg_fr(args.w + (word & spmv_col_mask));
      if (tag == spmv_tag_table) {
        const uint32_t idx = __ldg(m.words + ++k);
        if (x.is_zero()) continue;
        const Fr c = ldg_fr(m.table + idx);
        acc += x.is_one() ? c : c * x;
      } else if (tag == spmv_tag_one) {
        acc += x;
      } else {
        acc -= x;
      }
    }
  }
  store_fr(m.out + r, acc);
}

}  // namespace pp::cuda::spmv_detail

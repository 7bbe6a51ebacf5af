// GPU SpMV for Groth16: a = A w, b = B w, c = C w over the compact resident matrices of
// spmv_matrix.hpp, written into caller-provided device buffers of the domain size n (rows past the
// constraints are zero). Identical to r1cs::evaluate_abc on the CPU. Templates on the scalar field
// Fr (both curves' instantiated in spmv_fr.cu). Plain C++ header.
//
// Use: make_compact_r1cs(cs) -> compact.device_bytes() -> caller provides that much device memory ->
// upload_r1cs(compact, d_region, bytes, stream) once per circuit -> spmv_abc(...) per partition:
// no allocation, no workspace, stream-ordered, never synchronizes.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/result.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "cuda/plan/spmv_tuning.hpp"
#include "cuda/runtime/link_pacer.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"

namespace pp::cuda {

// One resident matrix: a view of device memory the caller owns.
struct device_csr {
  uint64_t rows = 0;
  const uint32_t* row_ptr = nullptr;  // rows + 1
  const uint32_t* words = nullptr;
  const fr_words* table = nullptr;  // the SpMV reads them as its Fr
};

struct device_r1cs {
  uint64_t num_constraints = 0;
  uint64_t num_variables = 0;
  device_csr m[3];  // A, B, C
};

// Copies the compact matrices into d_region (>= compact.device_bytes(), 256-byte aligned), ordered
// on stream, and waits for that stream: setup, once per circuit, from pageable host memory.
result<device_r1cs> upload_r1cs(const compact_r1cs& compact, void* d_region, uint64_t bytes, cudaStream_t stream);

// d_w: num_variables witness values (device). d_a, d_b, d_c: n >= num_constraints values each, not
// aliasing d_w. The SpMV needs no workspace.
template <class Fr>
status spmv_abc(const device_r1cs& m, const Fr* d_w, std::type_identity_t<Fr>* d_a, std::type_identity_t<Fr>* d_b,
                std::type_identity_t<Fr>* d_c, uint64_t n, cudaStream_t stream,
                const spmv_tuning& tuning = spmv_tuning_sm90);

// Only the coefficient tables into d_region (>= k.tables_bytes, 256-byte aligned), for matrices
// streamed through spmv_one_streamed; row_ptr and words stay null. Waits for `stream` (setup).
result<device_r1cs> upload_r1cs_tables(const compact_r1cs& compact, const spmv_chunking& k, void* d_region,
                                       uint64_t bytes, cudaStream_t stream);

// The double buffer of a streamed SpMV: each chunk is copied on `copy` into the next slot once the
// kernel that last read that slot is done (freed), and the kernel waits for its copy (loaded).
struct spmv_row_stream {
  const std::byte* h_image = nullptr;  // fill_spmv_image's, pinned for full-speed copies
  const spmv_chunking* chunking = nullptr;
  void* d_slot[2] = {nullptr, nullptr};  // chunking->slot_bytes each, 256-byte aligned
  cudaStream_t copy = nullptr;
  cudaEvent_t loaded[2] = {nullptr, nullptr};
  cudaEvent_t freed[2] = {nullptr, nullptr};
  uint64_t turn = 0;
  uint64_t h2d_bytes = 0;  // bytes copied so far
  link_pace pace;          // the copies' share of a paced link (link_pacer.hpp; unpaced by default)
};

// spmv_one with the matrix's rows streamed from rs.h_image in the chunks of rs.chunking (m: the
// resident tables of upload_r1cs_tables): the same values. Stream-ordered, never synchronizes.
template <class Fr>
status spmv_one_streamed(const device_r1cs& m, int which, const Fr* d_w, std::type_identity_t<Fr>* d_out, uint64_t n,
                         cudaStream_t stream, spmv_row_stream& rs, const spmv_tuning& tuning = spmv_tuning_sm90);

// One matrix (0: A, 1: B, 2: C) into d_out (n values): exactly what spmv_abc writes for it. For
// callers that need the three products in turns (one buffer for b and then c).
template <class Fr>
status spmv_one(const device_r1cs& m, int which, const Fr* d_w, std::type_identity_t<Fr>* d_out, uint64_t n,
                cudaStream_t stream, const spmv_tuning& tuning = spmv_tuning_sm90);

}  // namespace pp::cuda

// GPU SpMV over Fr: matrix upload and the launch of spmv_kernels.cuh, for both curves' Fr.
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/spmv/spmv_device.hpp"
#include "cuda/spmv/spmv_kernels.cuh"

namespace pp::cuda {
namespace {

uint64_t pad256(uint64_t b) { return (b + 255) / 256 * 256; }

// The kernel's view of one matrix, its coefficient table read as Fr.
template <class Fr>
spmv_detail::csr_args<Fr> kernel_csr(const device_csr& c, const uint32_t* row_ptr, const uint32_t* words, Fr* out,
                                     uint64_t rows) {
  static_assert(sizeof(Fr) == sizeof(fr_words));
  return {row_ptr, words, reinterpret_cast<const Fr*>(c.table), out, rows};
}

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
    d.table = reinterpret_cast<const fr_words*>(p);
    if (c.table.size() * sizeof(fr_words) != 0) {
      PP_CUDA_TRY(
          cudaMemcpyAsync(p, c.table.data(), c.table.size() * sizeof(fr_words), cudaMemcpyHostToDevice, stream));
    }
    p += pad256(c.table.size() * sizeof(fr_words));
  }
  PP_CUDA_TRY(cudaStreamSynchronize(stream));  // pageable sources: setup only
  return out;
}

template <class Fr>
status spmv_abc(const device_r1cs& m, const Fr* d_w, std::type_identity_t<Fr>* d_a, std::type_identity_t<Fr>* d_b,
                std::type_identity_t<Fr>* d_c, uint64_t n, cudaStream_t stream, const spmv_tuning& tuning) {
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
  spmv_detail::abc_args<Fr> args{};
  Fr* outs[3] = {d_a, d_b, d_c};
  for (int i = 0; i < 3; ++i) {
    args.m[i] = kernel_csr(m.m[i], m.m[i].row_ptr, m.m[i].words, outs[i], m.m[i].rows);
  }
  args.w = d_w;
  args.n = n;
  spmv_detail::spmv_abc_kernel<<<dim3(uint32_t(blocks), 3), uint32_t(threads), 0, stream>>>(args);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

template <class Fr>
status spmv_one(const device_r1cs& m, int which, const Fr* d_w, std::type_identity_t<Fr>* d_out, uint64_t n,
                cudaStream_t stream, const spmv_tuning& tuning) {
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
  spmv_detail::abc_args<Fr> args{};
  const device_csr& c = m.m[which];
  args.m[0] = kernel_csr(c, c.row_ptr, c.words, d_out, c.rows);
  args.w = d_w;
  args.n = n;
  spmv_detail::spmv_abc_kernel<<<dim3(uint32_t(blocks), 1), uint32_t(threads), 0, stream>>>(args);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

result<device_r1cs> upload_r1cs_tables(const compact_r1cs& compact, const spmv_chunking& k, void* d_region,
                                       uint64_t bytes, cudaStream_t stream) {
  if (bytes < k.tables_bytes) {
    return invalid_argument("upload_r1cs_tables: region of " + std::to_string(bytes) + " bytes, expected at least " +
                            std::to_string(k.tables_bytes));
  }
  if (reinterpret_cast<uintptr_t>(d_region) % 256 != 0) {
    return invalid_argument("upload_r1cs_tables: region not 256-byte aligned");
  }
  device_r1cs out;
  out.num_constraints = compact.num_constraints;
  out.num_variables = compact.num_variables;
  auto* p = static_cast<std::byte*>(d_region);
  for (int i = 0; i < 3; ++i) {
    const compact_csr& c = compact.m[i];
    out.m[i].rows = c.rows;
    out.m[i].table = reinterpret_cast<const fr_words*>(p);
    if (!c.table.empty()) {
      PP_CUDA_TRY(
          cudaMemcpyAsync(p, c.table.data(), c.table.size() * sizeof(fr_words), cudaMemcpyHostToDevice, stream));
    }
    p += pad256(c.table.size() * sizeof(fr_words));
  }
  PP_CUDA_TRY(cudaStreamSynchronize(stream));  // pageable sources: setup only
  return out;
}

template <class Fr>
status spmv_one_streamed(const device_r1cs& m, int which, const Fr* d_w, std::type_identity_t<Fr>* d_out, uint64_t n,
                         cudaStream_t stream, spmv_row_stream& rs, const spmv_tuning& tuning) {
  if (which < 0 || which > 2) return invalid_argument("spmv_one_streamed: matrix " + std::to_string(which));
  if (n < m.num_constraints) {
    return invalid_argument("spmv_one_streamed: n = " + std::to_string(n) + ", expected at least " +
                            std::to_string(m.num_constraints) + " constraints");
  }
  if (d_out == nullptr || (d_w == nullptr && m.num_variables != 0) || rs.chunking == nullptr ||
      rs.h_image == nullptr || rs.d_slot[0] == nullptr || rs.d_slot[1] == nullptr) {
    return invalid_argument("spmv_one_streamed: null buffer");
  }
  const uint64_t threads = uint64_t(tuning.block_threads);
  if (threads == 0 || threads > 1024 || (n + threads - 1) / threads > 0x7fffffffull) {
    return invalid_argument("spmv_one_streamed: n = " + std::to_string(n) + " does not fit one grid");
  }
  const device_csr& c = m.m[which];
  // The matrix's chunks in row order; the last one also writes the zero rows up to n.
  std::vector<const spmv_chunk*> mine;
  for (const spmv_chunk& ch : rs.chunking->chunks) {
    if (ch.matrix == which) mine.push_back(&ch);
  }
  if (mine.empty() || mine.back()->row0 + mine.back()->rows != c.rows) {
    return invalid_argument("spmv_one_streamed: the chunking does not cover matrix " + std::to_string(which));
  }
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const spmv_chunk& ch = *mine[i];
    if (ch.bytes > rs.chunking->slot_bytes) return invalid_argument("spmv_one_streamed: a chunk larger than the slots");
    const uint64_t out_rows = i + 1 == mine.size() ? n - ch.row0 : ch.rows;
    const int s = int(rs.turn++ & 1);
    PP_CUDA_TRY(cudaStreamWaitEvent(rs.copy, rs.freed[s], 0));
    PP_RETURN_IF_ERROR(link_pace_begin(rs.pace, ch.bytes, rs.copy));
    PP_CUDA_TRY(cudaMemcpyAsync(rs.d_slot[s], rs.h_image + ch.image_at, ch.bytes, cudaMemcpyHostToDevice, rs.copy));
    PP_RETURN_IF_ERROR(link_pace_end(rs.pace, rs.copy));
    PP_CUDA_TRY(cudaEventRecord(rs.loaded[s], rs.copy));
    PP_CUDA_TRY(cudaStreamWaitEvent(stream, rs.loaded[s], 0));
    rs.h2d_bytes += ch.bytes;
    if (out_rows != 0) {
      // The abc kernel with one matrix whose row pointers are the chunk's (rebased to its words).
      const auto* slot = static_cast<const std::byte*>(rs.d_slot[s]);
      spmv_detail::abc_args<Fr> args{};
      args.m[0] = kernel_csr(c, reinterpret_cast<const uint32_t*>(slot),
                             reinterpret_cast<const uint32_t*>(slot + ch.words_at), d_out + ch.row0, ch.rows);
      args.w = d_w;
      args.n = out_rows;
      spmv_detail::spmv_abc_kernel<<<dim3(uint32_t((out_rows + threads - 1) / threads), 1), uint32_t(threads), 0,
                                     stream>>>(args);
      PP_CUDA_TRY(cudaGetLastError());
    }
    PP_CUDA_TRY(cudaEventRecord(rs.freed[s], stream));
  }
  return ok_status();
}

#define PP_SPMV_INSTANTIATE(F)                                                                                       \
  template status spmv_abc(const device_r1cs&, const F*, F*, F*, F*, uint64_t, cudaStream_t, const spmv_tuning&);    \
  template status spmv_one_streamed(const device_r1cs&, int, const F*, F*, uint64_t, cudaStream_t, spmv_row_stream&, \
                                    const spmv_tuning&);                                                             \
  template status spmv_one(const device_r1cs&, int, const F*, F*, uint64_t, cudaStream_t, const spmv_tuning&);
PP_SPMV_INSTANTIATE(ff::fr)
PP_SPMV_INSTANTIATE(ff::bn254::fr)
#undef PP_SPMV_INSTANTIATE

}  // namespace pp::cuda

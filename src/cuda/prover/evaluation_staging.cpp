// evaluation_staging.hpp: chunked, checked copies of a, b, c through pinned staging.
#include "cuda/prover/evaluation_staging.hpp"

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "groth16/evaluation_prover.hpp"

namespace pp::cuda {

using ff::fr;

// The chunks hold whole values, so that each chunk's fill checks whole values.
static_assert(pinned_chunk_plan::align % sizeof(fr) == 0);

result<staged_copier> staged_copier::create(std::span<std::byte> pinned) {
  staged_copier s;
  const pinned_chunk_plan plan = pinned_chunk_plan::inside(reinterpret_cast<uintptr_t>(pinned.data()), pinned.size(),
                                                           2, min_chunk_bytes, max_chunk_bytes);
  if (plan.chunks == 0) return s;
  PP_ASSIGN_OR_RETURN(s.chunks_, pinned_chunk_copier::inside(pinned, plan));
  return s;
}

status staged_copier::copy(fr* d, std::span<const fr> h, uint64_t padded, cudaStream_t stream, const char* name) {
  if (!pinned()) {
    // No room to stage: one check, then the driver's own copy from pageable memory.
    if (const uint64_t i = groth16::first_unreduced(h); i != h.size()) return groth16::unreduced_scalar(name, i);
    PP_CUDA_TRY(cudaMemcpyAsync(d, h.data(), h.size_bytes(), cudaMemcpyHostToDevice, stream));
  } else {
    const auto fill_checked = [&](std::span<std::byte> chunk, uint64_t offset) {
      const uint64_t first = offset / sizeof(fr), n = chunk.size() / sizeof(fr);
      const uint64_t i = groth16::first_unreduced(h.subspan(first, n), reinterpret_cast<fr*>(chunk.data()));
      return i == n ? ok_status() : groth16::unreduced_scalar(name, first + i);
    };
    PP_RETURN_IF_ERROR(chunks_.copy(d, h.size_bytes(), stream, fill_checked));
  }
  if (h.size() < padded) PP_CUDA_TRY(cudaMemsetAsync(d + h.size(), 0, (padded - h.size()) * sizeof(fr), stream));
  return ok_status();
}

}  // namespace pp::cuda

// evaluation_staging.hpp: chunked, checked copies of a, b, c through pinned staging (oneTBB fills).
#include "cuda/evaluation_staging.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "ff/limbs.hpp"

namespace pp::cuda {
namespace {

using ff::fr;

// Values per task of a parallel fill or scan: 1 MiB of scalars.
constexpr uint64_t grain = uint64_t{1} << 15;

bool reduced(const fr& v) { return ff::limbs::cmp<fr::n64>(v.l, fr::params::modulus) < 0; }

// Copies src to dst (same size) and returns the first unreduced index, or src.size().
uint64_t copy_checked(std::span<const fr> src, fr* dst) {
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, src.size(), grain), uint64_t(src.size()),
      [&](const tbb::blocked_range<uint64_t>& r, uint64_t first) {
        std::memcpy(dst + r.begin(), src.data() + r.begin(), (r.end() - r.begin()) * sizeof(fr));
        for (uint64_t i = r.begin(); i < r.end() && i < first; ++i) {
          if (!reduced(dst[i])) return i;
        }
        return first;
      },
      [](uint64_t x, uint64_t y) { return std::min(x, y); });
}

status unreduced(const char* name, uint64_t i) {
  return invalid_argument(std::string(name) + "[" + std::to_string(i) +
                          "] is not a reduced scalar (Montgomery form, below r)");
}

}  // namespace

uint64_t first_unreduced(std::span<const fr> v) {
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, v.size(), grain), uint64_t(v.size()),
      [&](const tbb::blocked_range<uint64_t>& r, uint64_t first) {
        for (uint64_t i = r.begin(); i < r.end() && i < first; ++i) {
          if (!reduced(v[i])) return i;
        }
        return first;
      },
      [](uint64_t x, uint64_t y) { return std::min(x, y); });
}

result<staged_copier> staged_copier::create(std::span<std::byte> pinned) {
  staged_copier s;
  // Each chunk 256-byte aligned inside the span.
  const auto base = reinterpret_cast<uintptr_t>(pinned.data());
  const uint64_t skip = (256 - base % 256) % 256;
  if (pinned.size() < skip) return s;
  const uint64_t half = std::min((pinned.size() - skip) / 2 / 256 * 256, max_chunk_bytes);
  if (half < min_chunk_bytes) return s;
  s.chunk_values_ = half / sizeof(fr);
  for (int i = 0; i < 2; ++i) {
    s.chunks_[i] = {reinterpret_cast<fr*>(pinned.data() + skip + uint64_t(i) * half), s.chunk_values_};
    PP_ASSIGN_OR_RETURN(s.sent_[i], cuda_event::create());
  }
  return s;
}

status staged_copier::copy(fr* d, std::span<const fr> h, uint64_t padded, cudaStream_t stream, const char* name) {
  if (chunk_values_ == 0) {
    // No room to stage: one check, then the driver's own copy from pageable memory.
    if (const uint64_t i = first_unreduced(h); i != h.size()) return unreduced(name, i);
    PP_CUDA_TRY(cudaMemcpyAsync(d, h.data(), h.size_bytes(), cudaMemcpyHostToDevice, stream));
  } else {
    for (uint64_t off = 0; off < h.size(); off += chunk_values_) {
      const uint64_t n = std::min(chunk_values_, h.size() - off);
      const unsigned c = next_;
      next_ ^= 1u;
      if (queued_[c]) PP_RETURN_IF_ERROR(sent_[c].synchronize());
      queued_[c] = false;
      if (const uint64_t i = copy_checked(h.subspan(off, n), chunks_[c].data()); i != n) return unreduced(name, off + i);
      PP_CUDA_TRY(cudaMemcpyAsync(d + off, chunks_[c].data(), n * sizeof(fr), cudaMemcpyHostToDevice, stream));
      PP_RETURN_IF_ERROR(sent_[c].record(stream));
      queued_[c] = true;
    }
  }
  if (h.size() < padded) PP_CUDA_TRY(cudaMemsetAsync(d + h.size(), 0, (padded - h.size()) * sizeof(fr), stream));
  return ok_status();
}

}  // namespace pp::cuda

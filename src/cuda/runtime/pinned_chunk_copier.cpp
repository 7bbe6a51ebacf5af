// pinned_chunk_copier.hpp: chunked copies through pinned memory, each chunk refilled behind its event.
#include "cuda/runtime/pinned_chunk_copier.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"

namespace pp::cuda {

namespace {

// One core copies ~5-10 GB/s; a fill is split in 1 MiB blocks so every core takes part.
constexpr uint64_t fill_grain = uint64_t{1} << 20;

void parallel_copy(std::byte* dst, const std::byte* src, uint64_t bytes) {
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, bytes, fill_grain), [&](const tbb::blocked_range<uint64_t>& r) {
    std::memcpy(dst + r.begin(), src + r.begin(), r.end() - r.begin());
  });
}

status check_usable(const pinned_chunk_plan& plan) {
  if (plan.usable()) return ok_status();
  return invalid_argument("pinned_chunk_copier: needs two chunks or more of a byte or more, got " +
                          std::to_string(plan.chunks) + " of " + std::to_string(plan.chunk_bytes) + " bytes");
}

}  // namespace

void pinned_chunk_copier::free_pinned::operator()(std::byte* p) const { (void)cudaFreeHost(p); }

result<pinned_chunk_copier> pinned_chunk_copier::allocate(uint64_t chunk_bytes, uint32_t chunks) {
  PP_RETURN_IF_ERROR(check_usable({0, chunk_bytes, chunks}));
  if (chunk_bytes > std::numeric_limits<uint64_t>::max() / chunks) {
    return invalid_argument("pinned_chunk_copier: " + std::to_string(chunks) + " chunks of " +
                            std::to_string(chunk_bytes) + " bytes overflow 64 bits");
  }
  void* h = nullptr;
  if (cudaHostAlloc(&h, chunk_bytes * chunks, cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    return resource_exhausted("pinned_chunk_copier: " + std::to_string(chunks) + " pinned chunks of " +
                              std::to_string(chunk_bytes) + " bytes could not be allocated");
  }
  std::unique_ptr<std::byte, free_pinned> owned(static_cast<std::byte*>(h));
  PP_ASSIGN_OR_RETURN(pinned_chunk_copier c, over(owned.get(), chunk_bytes, chunks));
  c.owned_ = std::move(owned);
  return c;
}

result<pinned_chunk_copier> pinned_chunk_copier::inside(std::span<std::byte> pinned, const pinned_chunk_plan& plan) {
  PP_RETURN_IF_ERROR(check_usable(plan));
  if (plan.end() > pinned.size()) {
    return invalid_argument("pinned_chunk_copier: the chunks end at byte " + std::to_string(plan.end()) + " of " +
                            std::to_string(pinned.size()) + " lent");
  }
  return over(pinned.data() + plan.skip, plan.chunk_bytes, plan.chunks);
}

result<pinned_chunk_copier> pinned_chunk_copier::over(std::byte* base, uint64_t chunk_bytes, uint32_t chunks) {
  pinned_chunk_copier c;
  c.base_ = base;
  c.chunk_bytes_ = chunk_bytes;
  for (uint32_t i = 0; i < chunks; ++i) {
    PP_ASSIGN_OR_RETURN(cuda_event e, cuda_event::create());
    c.sent_.push_back(std::move(e));
  }
  return c;
}

pinned_chunk_copier::~pinned_chunk_copier() { wait_sent(); }

pinned_chunk_copier::pinned_chunk_copier(pinned_chunk_copier&& o) noexcept
    : owned_(std::move(o.owned_)),
      base_(std::exchange(o.base_, nullptr)),
      chunk_bytes_(std::exchange(o.chunk_bytes_, 0)),
      sent_(std::move(o.sent_)),
      next_(std::exchange(o.next_, 0)) {}

pinned_chunk_copier& pinned_chunk_copier::operator=(pinned_chunk_copier&& o) noexcept {
  if (this != &o) {
    wait_sent();  // before this copier's memory goes (or goes back to its lender)
    owned_ = std::move(o.owned_);
    base_ = std::exchange(o.base_, nullptr);
    chunk_bytes_ = std::exchange(o.chunk_bytes_, 0);
    sent_ = std::move(o.sent_);
    o.sent_.clear();
    next_ = std::exchange(o.next_, 0);
  }
  return *this;
}

void pinned_chunk_copier::wait_sent() const {
  // A chunk's copy may still be in flight: its memory must not go, or be written, before it leaves.
  for (const cuda_event& e : sent_) (void)e.synchronize();
}

status pinned_chunk_copier::copy(void* d, uint64_t bytes, cudaStream_t stream, const fill_fn& fill) {
  if (sent_.empty()) return failed_precondition("pinned_chunk_copier: no chunks (not created)");
  auto* const dst = static_cast<std::byte*>(d);
  for (uint64_t off = 0; off < bytes; off += chunk_bytes_) {
    const uint64_t c = next_ % sent_.size();
    const std::span<std::byte> chunk(base_ + c * chunk_bytes_, std::min(chunk_bytes_, bytes - off));
    PP_RETURN_IF_ERROR(sent_[c].synchronize());
    PP_RETURN_IF_ERROR(fill(chunk, off));
    PP_CUDA_TRY(cudaMemcpyAsync(dst + off, chunk.data(), chunk.size(), cudaMemcpyHostToDevice, stream));
    PP_RETURN_IF_ERROR(sent_[c].record(stream));
    ++next_;
  }
  return ok_status();
}

status pinned_chunk_copier::copy_to_device(void* d, const void* h, uint64_t bytes, cudaStream_t stream) {
  const auto* const src = static_cast<const std::byte*>(h);
  return copy(d, bytes, stream, [src](std::span<std::byte> chunk, uint64_t offset) {
    parallel_copy(chunk.data(), src + offset, chunk.size());
    return ok_status();
  });
}

}  // namespace pp::cuda

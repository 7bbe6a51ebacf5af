// pinned_host.hpp: a process-wide table of pinned ranges with hold counts.
#include "cuda/runtime/pinned_host.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <string>

#include "core/mutex.hpp"

namespace pp::cuda {
namespace {

struct range_entry {
  uint64_t bytes = 0;
  uint64_t holds = 0;
};

struct registry {
  pp::mutex mu;
  std::map<const void*, range_entry> ranges PP_GUARDED_BY(mu);
  uint64_t total PP_GUARDED_BY(mu) = 0;
};

registry& reg() {
  static registry r;
  return r;
}

void drop(const void* p) {
  registry& r = reg();
  pp::mutex_lock lock(r.mu);
  auto it = r.ranges.find(p);
  if (it == r.ranges.end() || --it->second.holds > 0) return;
  // The memory may already be gone with its key when the last backend lets go: nothing to report.
  (void)cudaHostUnregister(const_cast<void*>(p));
  r.total -= it->second.bytes;
  r.ranges.erase(it);
}

}  // namespace

pinned_range::~pinned_range() {
  if (p_ != nullptr) drop(p_);
}

pinned_range& pinned_range::operator=(pinned_range&& o) noexcept {
  if (this != &o) {
    if (p_ != nullptr) drop(p_);
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}

result<pinned_range> pinned_range::pin(const void* p, uint64_t bytes) {
  if (p == nullptr || bytes == 0) return invalid_argument("pinned_range: empty range");
  registry& r = reg();
  pp::mutex_lock lock(r.mu);
  auto it = r.ranges.find(p);
  if (it != r.ranges.end()) {
    if (it->second.bytes != bytes) {
      return invalid_argument("pinned_range: " + std::to_string(bytes) + " bytes at an address pinned with " +
                              std::to_string(it->second.bytes));
    }
    ++it->second.holds;
    return pinned_range(p);
  }
  const cudaError_t e = cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterDefault);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clear it for the next call on this thread
    return internal_error(std::string("cudaHostRegister of ") + std::to_string(bytes) + " bytes: " +
                          cudaGetErrorName(e));
  }
  r.ranges.emplace(p, range_entry{bytes, 1});
  r.total += bytes;
  return pinned_range(p);
}

uint64_t pinned_range::pinned_bytes() {
  registry& r = reg();
  pp::mutex_lock lock(r.mu);
  return r.total;
}

}  // namespace pp::cuda

// first_touch.hpp: parallel first touch with transparent-huge-page advice.
#include "formats/first_touch.hpp"

#include <sys/mman.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstring>

namespace pp::formats {

namespace {

// The huge page size of x86-64 and arm64 (4 KiB base pages): the advice's alignment, and the touch
// grain (one fault per task when the advice is taken).
constexpr std::size_t huge_page = std::size_t{2} << 20;

}  // namespace

void first_touch_parallel(void* p, std::size_t bytes) {
  auto* const b = static_cast<std::byte*>(p);
  const auto begin = (reinterpret_cast<std::uintptr_t>(b) + huge_page - 1) & ~(huge_page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(b) + bytes) & ~(huge_page - 1);
  // Advice: refused (THP off, or not anonymous memory) it changes nothing but the fault size.
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bytes, huge_page), [&](const tbb::blocked_range<std::size_t>& r) {
    std::memset(b + r.begin(), 0, r.end() - r.begin());
  });
}

}  // namespace pp::formats

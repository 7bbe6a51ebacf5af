// pinned_chunk_plan (src/cuda/runtime/pinned_chunk_plan.hpp), host only: the chunks inside lent memory
// against a search that tries every chunk size from the cap down, for random bases, sizes, counts
// and bounds (fresh seed per run), and the edges on purpose: aligned and unaligned bases, memory
// shorter than the skip, a chunk exactly the least size and one unit short of it, a cap that is no
// whole number of units, zero chunks.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "cuda/runtime/pinned_chunk_plan.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

constexpr uint64_t unit = pinned_chunk_plan::align;

// The oracle: the largest multiple of unit, at most max, of which `chunks` fit after the skip to the
// first aligned address; none when it is below min (or no unit fits).
pinned_chunk_plan searched(uint64_t base, uint64_t bytes, uint32_t chunks, uint64_t min, uint64_t max) {
  uint64_t skip = 0;
  while ((base + skip) % unit != 0) ++skip;
  if (chunks == 0) return {};
  for (uint64_t each = max / unit * unit; each >= unit && each >= min; each -= unit) {
    if (skip + chunks * each <= bytes) return {skip, each, chunks};
  }
  return {};
}

void expect_plan(const pinned_chunk_plan& got, const pinned_chunk_plan& want) {
  EXPECT_EQ(got.chunks, want.chunks);
  EXPECT_EQ(got.chunk_bytes, want.chunk_bytes);
  if (want.chunks != 0) {
    EXPECT_EQ(got.skip, want.skip);
  }
}

TEST(PinnedChunkPlan, Edges) {
  // Aligned: no skip; two chunks of half the memory, rounded down to whole units.
  constexpr pinned_chunk_plan a = pinned_chunk_plan::inside(4096, 10 * unit + 100, 2, 1, uint64_t{1} << 30);
  static_assert(a.skip == 0 && a.chunk_bytes == 5 * unit && a.chunks == 2 && a.end() == 10 * unit);
  // Unaligned by 64: 192 bytes skipped.
  const pinned_chunk_plan u = pinned_chunk_plan::inside(4096 + 64, 10 * unit, 2, 1, uint64_t{1} << 30);
  EXPECT_EQ(u.skip, 192u);
  EXPECT_EQ(u.chunk_bytes, 4 * unit);
  EXPECT_EQ(u.end(), 192 + 8 * unit);
  // Shorter than the skip, or than one unit per chunk.
  EXPECT_EQ(pinned_chunk_plan::inside(1, 100, 2, 1, unit).chunks, 0u);
  EXPECT_EQ(pinned_chunk_plan::inside(0, 2 * unit - 1, 2, 1, unit).chunks, 0u);
  // The least size exactly, and one unit short of it.
  EXPECT_EQ(pinned_chunk_plan::inside(0, 8 * unit, 2, 4 * unit, 16 * unit).chunk_bytes, 4 * unit);
  EXPECT_EQ(pinned_chunk_plan::inside(0, 8 * unit - 1, 2, 4 * unit, 16 * unit).chunks, 0u);
  // The cap, and a cap that is not a whole number of units (rounded down).
  EXPECT_EQ(pinned_chunk_plan::inside(0, 100 * unit, 4, 1, 3 * unit).chunk_bytes, 3 * unit);
  EXPECT_EQ(pinned_chunk_plan::inside(0, 100 * unit, 4, 1, 3 * unit + 7).chunk_bytes, 3 * unit);
  EXPECT_EQ(pinned_chunk_plan::inside(0, 100 * unit, 4, 1, unit - 1).chunks, 0u);
  EXPECT_EQ(pinned_chunk_plan::inside(0, 100 * unit, 0, 1, unit).chunks, 0u);
  // usable(): two chunks or more of a byte or more.
  EXPECT_TRUE((pinned_chunk_plan{0, 1, 2}).usable());
  EXPECT_FALSE((pinned_chunk_plan{0, 1, 1}).usable());
  EXPECT_FALSE((pinned_chunk_plan{0, 0, 4}).usable());
  EXPECT_FALSE(pinned_chunk_plan{}.usable());
}

TEST(PinnedChunkPlan, MatchesTheSearchOnRandomMemory) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 20000; ++i) {
    const uint64_t base = rng.next() % (1 << 20), bytes = rng.next() % (64 * unit);
    const auto chunks = static_cast<uint32_t>(rng.next() % 6);
    const uint64_t min = rng.next() % (8 * unit), max = rng.next() % (40 * unit);
    SCOPED_TRACE("base " + std::to_string(base) + ", bytes " + std::to_string(bytes) + ", chunks " +
                 std::to_string(chunks) + ", min " + std::to_string(min) + ", max " + std::to_string(max));
    const pinned_chunk_plan got = pinned_chunk_plan::inside(base, bytes, chunks, min, max);
    expect_plan(got, searched(base, bytes, chunks, min, max));
    if (got.chunks != 0) {
      EXPECT_EQ((base + got.skip) % unit, 0u);
      EXPECT_EQ(got.chunk_bytes % unit, 0u);
      EXPECT_LE(got.end(), bytes);
    }
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace pp::cuda::test

// together_plan: how many partitions of one key a lane takes per streamed copy of L, A, B_G1 and
// B_G2 (cuda_backend::start_together; docs/perf/vram-budgets.md, "One copy of a chunk for several
// partitions"). Their packed witnesses lie one after the other in the lane's pinned staging (the
// batch's MSM sums at its tail), and again, once every partition's H is done, in the lane's witness
// and scalar buffers, each beside one MSM vector state (msm_vector_layout) that each of the four
// tables' MSMs can run in. Plain C++: the backend sizes a batch with these functions (and refuses one
// they say does not fit), `proofpipe plan` prints the k they give.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/result.hpp"
#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/witness_layout.hpp"

namespace pp::cuda {

// At most this many partitions together.
inline constexpr size_t max_partitions_together = 8;

// The staging tail that holds a batch's MSM sums: H, L, A, B_G1 (G1) and B_G2 (G2) XYZZ buckets of
// max_partitions_together partitions, of the larger curve (BLS12-381).
inline constexpr uint64_t together_sums_bytes =
    pad256(max_partitions_together * (4 * msm_g1.bucket_bytes + msm_g2.bucket_bytes));

// The first of L, A, B_G1 and B_G2 that plan p keeps resident (then nothing is copied to share:
// one partition at a time), or -1 when all four are streamed.
[[nodiscard]] int resident_shared_table(const key_plan& p);

// The pinned staging a lane needs to take k partitions of packed witnesses of packed_witness_bytes
// each together: the witnesses at 256-byte offsets, the batch's sums at the tail. It holds one
// partition at a time too (its sums take less than the batch's). k = 0 reads as 1.
[[nodiscard]] uint64_t together_staging_bytes(uint32_t k, uint64_t packed_witness_bytes);

// What a partition copies of the key (streamed tables and matrices) when k partitions go together:
// H and the matrix rows its own, L, A, B_G1 and B_G2 a k-th (one copy serves the k), rounded up;
// besides its packed witness, uploaded twice when k > 1. k = 1 is key_plan::streamed_bytes.
[[nodiscard]] uint64_t together_streamed_bytes(const key_shape& s, const key_plan& p, uint32_t k);

// The vector state every one of L, A, B_G1 and B_G2 can run in with packed vectors: the largest of
// their least states (msm_vector_layout's buckets offset; more room lets their chunks carry their
// buckets). plan_gpu_msm's errors.
[[nodiscard]] result<uint64_t> least_vector_state(const key_shape& s, const key_plan& p);

// Each partition's vector state when `count` partitions whose packed witnesses take `packed_bytes`
// (each padded to 256 bytes, summed) share the lane's witness and scalar buffers: what is left
// after the witnesses, split evenly, 256-byte multiples; 0 when the witnesses alone overflow.
[[nodiscard]] uint64_t together_state_bytes(const key_plan& p, uint64_t packed_bytes, size_t count);

struct together_fit {
  uint32_t partitions = 1;        // k: 1 is one partition at a time (today's path)
  std::string limit;              // what keeps k from being one more
  uint64_t staging_for_more = 0;  // when the staging binds: the staging that takes what the buffers allow
};

// The most partitions (1 to max_partitions_together) of packed witnesses of `packed_witness_bytes`
// each that a lane of plan p (staging_bytes of pinned staging) takes together: they fit the staging
// before its sums and the witness and scalar buffers beside a least vector state each. 1 when the
// plan keeps one of the four tables resident (no copy to share). plan_gpu_msm's errors.
[[nodiscard]] result<together_fit> partitions_together(const key_shape& s, const key_plan& p, uint64_t staging_bytes,
                                                       uint64_t packed_witness_bytes);

// Of k partitions together whose witnesses pack as `packed`, the most (0 to k) whose vector states
// still let every one of L, A, B_G1 and B_G2 carry its buckets across its chunks at the width it
// takes with room to spare (make_msm_carried_pass), each table's selected points taken as the
// witness's share of values other than 0 and 1. More partitions than that still fit, but a table
// whose buckets no longer carry reduces every chunk's own: at 24 GiB on the PoRep key, eight
// together ran L's share in 180 ms a partition against five's 143 (docs/perf/vram-budgets.md,
// "Today"). plan_gpu_msm's errors.
[[nodiscard]] result<uint32_t> carrying_partitions(const key_shape& s, const key_plan& p,
                                                   const compact_witness_layout& packed, uint32_t k);

}  // namespace pp::cuda

#include "cuda/plan/together_plan.hpp"

#include <algorithm>

#include "core/status_macros.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "cuda/plan/msm_workspace.hpp"

namespace pp::cuda {
namespace {

// The tables one streamed copy serves for all the partitions together (H is each one's own).
constexpr int shared_tables[] = {table_l, table_a, table_b_g1, table_b_g2};

// A shared table's split MSM as plan p chunks it, and its curve's group.
struct table_msm {
  msm_group group;
  msm_plan plan;
};
result<table_msm> table_msm_of(const key_shape& s, const key_plan& p, int t) {
  const bool g2 = t == table_b_g2;
  msm_config cfg;
  cfg.max_chunk_points = g2 ? p.msm.g2_chunk : p.msm.g1_chunk;
  const msm_group group = g2 ? s.g2 : s.g1;
  PP_ASSIGN_OR_RETURN(msm_plan plan, plan_gpu_msm(s.points[t], true, cfg, group));
  return table_msm{group, std::move(plan)};
}

// The most partitions (0 to cap) of packed witnesses of packed_witness_bytes each that leave each a
// vector state of at least `state` bytes in plan p's witness and scalar buffers (a state shrinks as
// partitions are added).
uint32_t most_with_state(const key_plan& p, uint64_t packed_witness_bytes, uint64_t state, uint32_t cap) {
  uint32_t most = 0;
  while (most < cap && together_state_bytes(p, (most + 1) * pad256(packed_witness_bytes), most + 1) >= state) ++most;
  return most;
}

}  // namespace

int resident_shared_table(const key_plan& p) {
  for (const int t : shared_tables) {
    if (p.resident[t]) return t;
  }
  return -1;
}

uint64_t together_staging_bytes(uint32_t k, uint64_t packed_witness_bytes) {
  k = std::max<uint32_t>(k, 1);
  return (uint64_t{k} - 1) * pad256(packed_witness_bytes) + packed_witness_bytes + together_sums_bytes;
}

uint64_t together_streamed_bytes(const key_shape& s, const key_plan& p, uint32_t k) {
  uint64_t shared = 0;
  for (const int t : shared_tables) {
    if (!p.resident[t]) shared += s.table_bytes(t);
  }
  k = std::max<uint32_t>(k, 1);
  return p.streamed_bytes(s) - shared + (shared + k - 1) / k;
}

result<uint64_t> least_vector_state(const key_shape& s, const key_plan& p) {
  uint64_t least = 0;
  for (const int t : shared_tables) {
    PP_ASSIGN_OR_RETURN(const table_msm m, table_msm_of(s, p, t));
    least = std::max(least, make_msm_vector_layout(m.plan, m.group.bucket_bytes, key_shape::fr_bytes).buckets);
  }
  return least;
}

uint64_t together_state_bytes(const key_plan& p, uint64_t packed_bytes, size_t count) {
  const uint64_t area = p.lane.phase - p.lane.w;
  if (count == 0 || packed_bytes >= area) return 0;
  return (area - packed_bytes) / count / layout_alignment * layout_alignment;
}

result<together_fit> partitions_together(const key_shape& s, const key_plan& p, uint64_t staging_bytes,
                                         uint64_t packed_witness_bytes) {
  if (const int t = resident_shared_table(p); t >= 0) {
    return together_fit{1, std::string(key_table_names[t]) + " is resident: no copy to share"};
  }
  PP_ASSIGN_OR_RETURN(const uint64_t least, least_vector_state(s, p));
  const auto staging_for = [&](uint32_t k) { return together_staging_bytes(k, packed_witness_bytes); };
  const uint32_t by_buffers =
      std::max<uint32_t>(1, most_with_state(p, packed_witness_bytes, least, max_partitions_together));
  uint32_t by_staging = 1;
  while (by_staging < max_partitions_together && staging_for(by_staging + 1) <= staging_bytes) ++by_staging;
  together_fit fit;
  fit.partitions = std::min(by_buffers, by_staging);
  if (fit.partitions == max_partitions_together) {
    fit.limit = "at most " + std::to_string(max_partitions_together) + " together";
  } else if (by_staging == fit.partitions) {
    fit.limit = std::to_string(fit.partitions + 1) + " packed witnesses and their sums overflow the lane's staging (" +
                std::to_string(staging_bytes) + " bytes)";
    if (by_buffers > by_staging) {
      fit.staging_for_more = staging_for(by_buffers);
      fit.limit += "; a staging of " + std::to_string(fit.staging_for_more) + " bytes (gpu_staging_mb " +
                   std::to_string((fit.staging_for_more + (uint64_t{1} << 20) - 1) >> 20) + ") takes " +
                   std::to_string(by_buffers);
    }
  } else {
    fit.limit = std::to_string(fit.partitions + 1) + " packed witnesses and a vector state of " + std::to_string(least) +
                " bytes each overflow the lane's witness and scalar buffers (" +
                std::to_string(p.lane.phase - p.lane.w) + " bytes)";
  }
  return fit;
}

result<uint32_t> carrying_partitions(const key_shape& s, const key_plan& p, const compact_witness_layout& packed,
                                     uint32_t k) {
  // The state each table needs: its layout up to the buckets, then the carried pass's bucket array.
  uint64_t carrying = 0;
  const auto share = [&](uint64_t points) {
    return packed.num_variables == 0 ? points
                                      : uint64_t(double(points) * double(packed.num_other) / double(packed.num_variables));
  };
  for (const int t : shared_tables) {
    PP_ASSIGN_OR_RETURN(const table_msm m, table_msm_of(s, p, t));
    const msm_shape pass = make_msm_carried_pass(m.plan, m.group.bucket_bytes, share(s.points[t]),
                                                 share(std::min(m.plan.shape.n, s.points[t])));
    if (pass.window_bits == 0) return 0u;  // this table's chunks never carry on this plan
    const uint64_t array = m.group.bucket_bytes * uint64_t(pass.windows) * pass.buckets_per_window;
    carrying =
        std::max(carrying, make_msm_vector_layout(m.plan, m.group.bucket_bytes, key_shape::fr_bytes).buckets + array);
  }
  return most_with_state(p, packed.bytes, carrying, k);
}

}  // namespace pp::cuda

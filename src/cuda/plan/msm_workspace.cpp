// msm_workspace.hpp: the GPU MSM's plan with CUB's temp sizes from the model.
#include "cuda/plan/msm_workspace.hpp"

#include <algorithm>

#include "core/status_macros.hpp"

namespace pp::cuda {

uint64_t msm_chunk_limit(const msm_config& config, msm_group g, const msm_tuning& tuning) {
  if (config.max_chunk_points > 0) return config.max_chunk_points;
  return g.over_fp2 ? tuning.max_chunk_points_g2 : tuning.max_chunk_points_g1;
}

// query_cub_temp's queries: the sort of the pass's entries (at least one: its int item count), the
// selections of carry keys and of carry buckets over the pass's slots, and a split pass's index
// selection over select_n points (at least one).
cub_temp_bytes msm_cub_temp_bytes(const msm_shape& s, msm_group g, cub_arch a) {
  cub_temp_bytes t;
  t.sort = cub_sort_pairs_temp_bytes(a, std::max<uint64_t>(s.entries, 1), s.key_bits);
  t.select = std::max(cub_select_temp_bytes(a, cub_select_kind::flagged_u32, s.slots),
                      cub_select_temp_bytes(a, cub_select_kind::flagged_struct, s.slots, g.bucket_bytes));
  if (s.split) {
    t.select = std::max(t.select,
                        cub_select_temp_bytes(a, cub_select_kind::if_index, std::max<uint64_t>(s.select_n, 1)));
  }
  return t;
}

cub_temp_bytes msm_cub_temp_bound(const msm_shape& s, msm_group g) {
  cub_temp_bytes most;
  for (const cub_arch a : cub_archs) {
    const cub_temp_bytes t = msm_cub_temp_bytes(s, g, a);
    most.sort = std::max(most.sort, t.sort);
    most.select = std::max(most.select, t.select);
  }
  return most;
}

result<msm_plan> plan_gpu_msm(uint64_t n, bool split, const msm_config& config, msm_group g) {
  PP_ASSIGN_OR_RETURN(const msm_shape s,
                      make_msm_shape(n, config.window_bits, split, msm_chunk_limit(config, g), config.precomputed,
                                     msm_tuning_sm90, config.streamed));
  cub_temp_bytes temp = msm_cub_temp_bound(s, g);
  if (s.last_n != s.n) {
    const cub_temp_bytes last = msm_cub_temp_bound(make_msm_chunk_shape(s, s.last_n), g);
    temp.sort = std::max(temp.sort, last.sort);
    temp.select = std::max(temp.select, last.select);
  }
  return make_msm_plan(s, g.bucket_bytes, temp.sort, temp.select);
}

result<uint64_t> gpu_msm_workspace_bytes(uint64_t n, bool split, const msm_config& config, msm_group g) {
  PP_ASSIGN_OR_RETURN(const msm_plan p, plan_gpu_msm(n, split, config, g));
  return p.layout.total;
}

}  // namespace pp::cuda

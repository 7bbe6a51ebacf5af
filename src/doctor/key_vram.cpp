// key_vram (key_vram.hpp): the backend's planning on the key's files.
#include "doctor/key_vram.hpp"

#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "doctor/finding.hpp"
#include "formats/key_circuit.hpp"

namespace pp::doctor {

key_vram_plan plan_key_vram(const key_vram_query& q) {
  const bool bellperson = q.key.zkey.empty();
  const formats::key_files files{bellperson ? q.key.params : q.key.zkey, bellperson ? q.key.r1cs : "", bellperson};
  const auto unknown = [](const status& s) {
    return key_vram_plan{key_placement::unknown, 0, "not planned: " + s.to_string()};
  };
  auto k = formats::read_key_files(files, {.check = formats::zkey_point_check::range_only}, {.checked = false});
  if (!k.ok()) return unknown(k.error());
  cuda::cuda_backend_config cfg;
  cfg.max_vram_bytes = q.budget_bytes;
  cfg.lanes = q.lanes;
  cfg.h_copies = q.h_copies;
  auto compact = cuda::make_compact_r1cs(k->cs);
  if (!compact.ok()) return unknown(compact.error());
  auto shape = cuda::shape_key(k->pk, k->cs, *compact, cfg.staging_bytes, cuda::matrix_chunk_bytes(cfg), cfg.h_copies);
  if (!shape.ok()) return unknown(shape.error());
  auto opts = cuda::options_for(*shape, cfg);
  if (!opts.ok()) return unknown(opts.error());
  const uint64_t least = cuda::least_budget_bytes(*shape, *opts, cfg, 0);
  auto plan = cuda::plan_for_budget(*shape, cfg, 0);
  if (!plan.ok()) {
    if (plan.error().code() != status_code::resource_exhausted) return unknown(plan.error());
    return {key_placement::refused, least, "refused: " + plan.error().message()};
  }
  const cuda::key_footprint f = cuda::footprint_of(*shape, plan->plan);
  if (f.streamed_bytes == 0) {
    return {key_placement::resident, least, "resident (" + f.plan + "); the least budget is " + bytes_text(least)};
  }
  return {key_placement::streamed, least,
          "streamed, " + bytes_text(f.streamed_bytes) + " copied per partition (" + f.plan + "); the least budget is " +
              bytes_text(least)};
}

}  // namespace pp::doctor

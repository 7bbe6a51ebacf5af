// key_vram (key_vram.hpp): the backend's planning on the key's files, of the key's curve (a BN254
// key's points are smaller than BLS12-381's: planned as BLS12-381's, its budget would be overstated).
#include "doctor/key_vram.hpp"

#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "doctor/finding.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"

namespace pp::doctor {
namespace {

key_vram_plan unknown(const status& s) { return {key_placement::unknown, 0, "not planned: " + s.to_string()}; }

// The plan of (pk, cs), a key and its circuit of one curve.
template <class Family>
key_vram_plan plan_of(const groth16::basic_proving_key<Family>& pk,
                      const r1cs::basic_constraint_system<typename Family::fr>& cs, const key_vram_query& q) {
  cuda::cuda_backend_config cfg;
  cfg.max_vram_bytes = q.budget_bytes;
  cfg.lanes = q.lanes;
  cfg.h_copies = q.h_copies;
  auto compact = cuda::make_compact_r1cs(cs);
  if (!compact.ok()) return unknown(compact.error());
  auto shape = cuda::shape_key(pk, cs, *compact, cfg.staging_bytes, cuda::matrix_rows_for(cfg), cfg.h_copies);
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

// A BN254 zkey and the circuit it implies, as the engine loads one.
key_vram_plan plan_bn254_zkey(const key_vram_query& q) {
  using bn = ec::bn254::family;
  auto z = formats::read_snarkjs_zkey_file<bn>(q.key.zkey, {.check = formats::zkey_point_check::range_only});
  if (!z.ok()) return unknown(z.error());
  auto cs = formats::circuit_from_zkey(*z);
  if (!cs.ok()) return unknown(cs.error().with_context(q.key.zkey));
  return plan_of(z->pk, *cs, q);
}

}  // namespace

key_vram_plan plan_key_vram(const key_vram_query& q) {
  const bool bellperson = q.key.zkey.empty();
  if (!bellperson) {
    auto curve = formats::read_snarkjs_zkey_curve_file(q.key.zkey);
    if (!curve.ok()) return unknown(curve.error());
    if (*curve == ec::curve_id::bn254) return plan_bn254_zkey(q);
  }
  const formats::key_files files{bellperson ? q.key.params : q.key.zkey, bellperson ? q.key.r1cs : "", bellperson};
  auto k = formats::read_key_files(files, {.check = formats::zkey_point_check::range_only}, {.checked = false});
  if (!k.ok()) return unknown(k.error());
  return plan_of(k->pk, k->cs, q);
}

}  // namespace pp::doctor

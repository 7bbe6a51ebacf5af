// key_loader.hpp: a circuit's key and an evaluation request's, planned and placed on demand.
#include "cuda/key/key_loader.hpp"

#include <chrono>
#include <utility>

#include "core/status_macros.hpp"
#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"

namespace pp::cuda {
namespace {
using clock = std::chrono::steady_clock;
}  // namespace

template <class Family>
basic_circuit_key_loader<Family>::basic_circuit_key_loader(const proving_key& pk, const constraint_system& cs,
                                                           const compact_r1cs* compact, const key_upload_target& target)
    : pk_(pk), cs_(cs), given_(compact), target_(target), id_(key_fingerprint::of(pk, cs)) {}

template <class Family>
result<const compact_r1cs*> basic_circuit_key_loader<Family>::matrices() {
  if (given_ == nullptr) {
    PP_ASSIGN_OR_RETURN(compact_r1cs c, make_compact_r1cs(cs_));
    built_.emplace(std::move(c));
    given_ = &*built_;
  }
  return given_;
}

template <class Family>
result<planned_key> basic_circuit_key_loader<Family>::plan() {
  PP_ASSIGN_OR_RETURN(const compact_r1cs* compact, matrices());
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk_, cs_));
  const cuda_backend_config& cfg = target_.cfg;
  planned_key pl;
  pl.id = id_;
  PP_ASSIGN_OR_RETURN(pl.shape,
                      shape_key(pk_, cs_, *compact, cfg.staging_bytes, matrix_rows_for(cfg), cfg.h_copies));
  PP_ASSIGN_OR_RETURN(pl.options, options_for(pl.shape, cfg));
  return pl;
}

template <class Family>
status basic_circuit_key_loader<Family>::upload(key_entry& k, const workspace_span& ws, uint64_t pin_budget,
                                                pinned_chunk_copier& staging) {
  PP_ASSIGN_OR_RETURN(const compact_r1cs* compact, matrices());
  return upload_key(k, pk_, compact, gather_lists::of(pk_), target_.d_region, target_.copy, staging, ws,
                    pin_budget);
}

template class basic_circuit_key_loader<ec::bls12_381::family>;
template class basic_circuit_key_loader<ec::bn254::family>;

evaluation_key_loader::evaluation_key_loader(const groth16::evaluation_request& req, const key_upload_target& target,
                                             groth16::prove_timings& t)
    : req_(req), target_(target), t_(t), id_(key_fingerprint::of_evaluations(req)) {}

result<planned_key> evaluation_key_loader::plan() {
  const cuda_backend_config& cfg = target_.cfg;
  planned_key pl;
  pl.id = id_;
  PP_ASSIGN_OR_RETURN(pl.shape, shape_evaluation_key(req_, cfg.staging_bytes, cfg.h_copies));
  PP_ASSIGN_OR_RETURN(pl.options, options_for(pl.shape, cfg));
  return pl;
}

status evaluation_key_loader::upload(key_entry& k, const workspace_span& ws, uint64_t pin_budget,
                                     pinned_chunk_copier& staging) {
  const auto t0 = clock::now();
  const gather_lists lists = gather_lists::of(req_);
  t_.add("gather lists (host)", clock::now() - t0);
  const auto t1 = clock::now();
  status st = upload_key(k, *req_.pk, nullptr, lists, target_.d_region, target_.copy, staging, ws, pin_budget);
  t_.add("upload_key", clock::now() - t1);
  return st;
}

}  // namespace pp::cuda

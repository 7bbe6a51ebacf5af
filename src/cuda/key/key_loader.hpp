// key_loader: what the region policy (region_policy.hpp) asks of a key it has not placed: which key
// it is, the plan's view of it (made on demand) and its upload at the offsets the plan gives. Two
// kinds: a circuit's key (pk, cs) for cuda_backend::start and prepare, and an evaluation request's
// key (no matrices, its gather lists from the request's densities) for prove_evaluations. Tests
// give the policy fake ones that place nothing on a device.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "core/result.hpp"
#include "cuda/key/key_residency.hpp"
#include "cuda/plan/backend_config.hpp"
#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "groth16/backend.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::cuda {

// A key of the region's plan, placed or not: what planning the region again needs (no pointer into
// the key).
struct planned_key {
  key_fingerprint id;
  key_shape shape;
  std::vector<msm_chunking> options;  // the MSM chunkings its plan may pick, largest first
  uint64_t last_use = 0;              // the policy's use count at its latest use (least recent: evicted first)
};

class key_loader {
 public:
  virtual ~key_loader() = default;
  [[nodiscard]] virtual const key_fingerprint& id() const = 0;
  // The key's shape and chunkings, asked when the key is first planned (a circuit's compacts its
  // matrices: seconds at 2^27). A mismatched key and circuit is the request's error.
  virtual result<planned_key> plan() = 0;
  // Places the key at k's plan (k's id, shape, plan and base set): upload_key (key_residency.hpp)
  // through staging's pinned chunks, at most pin_budget bytes pinned, the workspaces at ws.
  virtual status upload(key_entry& k, const workspace_span& ws, uint64_t pin_budget,
                        pinned_chunk_copier& staging) = 0;
};

// Where the backend places its keys: its settings (staging size, chunk caps, H's copies), its device
// region, and the stream the uploads run on (setup work, waited for).
struct key_upload_target {
  cuda_backend_config cfg;
  void* d_region = nullptr;
  cudaStream_t copy = nullptr;
};

// A circuit's key of either curve (instantiated in key_loader.cpp; circuit_key_loader is BLS12-381's):
// cs's compact matrices are the caller's (compact) or made here once, when first needed (to plan the
// key, or to place one an earlier call planned).
template <class Family>
class basic_circuit_key_loader final : public key_loader {
 public:
  using proving_key = groth16::basic_proving_key<Family>;
  using constraint_system = r1cs::basic_constraint_system<typename Family::fr>;
  basic_circuit_key_loader(const proving_key& pk, const constraint_system& cs, const compact_r1cs* compact,
                           const key_upload_target& target);
  [[nodiscard]] const key_fingerprint& id() const override { return id_; }
  result<planned_key> plan() override;
  status upload(key_entry& k, const workspace_span& ws, uint64_t pin_budget, pinned_chunk_copier& staging) override;

 private:
  result<const compact_r1cs*> matrices();

  const proving_key& pk_;
  const constraint_system& cs_;
  const compact_r1cs* given_;
  std::optional<compact_r1cs> built_;
  key_upload_target target_;
  key_fingerprint id_;
};
using circuit_key_loader = basic_circuit_key_loader<ec::bls12_381::family>;

// An evaluation request's key (checked by groth16::check_evaluation_request): its upload's steps go to
// t ("gather lists (host)", "upload_key"), so a proof that placed its key says where its time went.
class evaluation_key_loader final : public key_loader {
 public:
  evaluation_key_loader(const groth16::evaluation_request& req, const key_upload_target& target,
                        groth16::prove_timings& t);
  [[nodiscard]] const key_fingerprint& id() const override { return id_; }
  result<planned_key> plan() override;
  status upload(key_entry& k, const workspace_span& ws, uint64_t pin_budget, pinned_chunk_copier& staging) override;

 private:
  const groth16::evaluation_request& req_;
  key_upload_target target_;
  groth16::prove_timings& t_;
  key_fingerprint id_;
};

}  // namespace pp::cuda

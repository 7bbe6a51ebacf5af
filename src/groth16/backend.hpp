// The prover backend contract (docs/design.md, "Layers and data flow"): start() does the heavy work (SpMV,
// NTTs, MSMs) and returns as soon as the device is free for the next partition; finish() does the host work
// (assembly, self-verification). CPU and CUDA backends give identical group elements for the same key,
// circuit, witness and (r, s). Templates over the curve family; the unqualified names (backend,
// prove_request, blinding, ...) are BLS12-381's, which the GPU backend implements.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::groth16 {

// The blinding pair (r, s) of one proof.
template <class Family>
struct basic_blinding {
  typename Family::fr r, s;
};

// Uniform (r, s) from std::random_device: 512 random bits per scalar reduced mod r (bias < 2^-256).
template <class Family = ec::bls12_381::family>
basic_blinding<Family> random_blinding();

struct prove_options {
  // Verify the proof against pk.vk before returning it; a proof that fails is never returned.
  bool self_verify = true;
  // Check A w * B w = C w row by row before proving (one extra SpMV pass); names the first failing
  // constraint. Off by default: the self-check catches a bad witness anyway, only less precisely.
  bool check_satisfied = false;
};

// Wall time of each prover step, in the order they ran.
struct prove_timings {
  struct step {
    std::string name;
    std::chrono::nanoseconds elapsed{};
  };
  std::vector<step> steps;
  // Intervals of work that ran off the calling thread (a GPU lane's copy and compute streams), on
  // the steady clock, for timelines; `track` names where it ran ("lane0/compute").
  struct span {
    std::string name, track;
    std::chrono::steady_clock::time_point begin, end;
  };
  std::vector<span> spans;
  void add(std::string name, std::chrono::nanoseconds d) { steps.push_back({std::move(name), d}); }
  [[nodiscard]] std::chrono::nanoseconds total() const {
    std::chrono::nanoseconds t{};
    for (const step& s : steps) t += s.elapsed;
    return t;
  }
};

// Everything one proof needs. The request only borrows: key, circuit and witness must outlive the
// pending job (until finish() returns).
template <class Family>
struct basic_prove_request {
  const basic_proving_key<Family>* pk = nullptr;
  const r1cs::basic_constraint_system<typename Family::fr>* cs = nullptr;
  std::span<const typename Family::fr> witness;  // 1 | public | aux, Montgomery form
  std::optional<basic_blinding<Family>> rs;       // unset: random_blinding()
  prove_options options;
};

// A started proof: backend-specific intermediate results, opaque to callers.
class pending {
 public:
  virtual ~pending() = default;
};
using pending_ptr = std::unique_ptr<pending>;

template <class Family>
struct basic_prove_output {
  basic_proof<Family> pi;
  prove_timings timings;
};

template <class Family>
class basic_backend {
 public:
  using family = Family;
  using request = basic_prove_request<Family>;
  using output = basic_prove_output<Family>;

  virtual ~basic_backend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Validates the request and runs SpMV, NTTs and MSMs. Errors: invalid_argument (witness size,
  // key/circuit mismatch, unsatisfied constraint when options.check_satisfied).
  virtual result<pending_ptr> start(const request& req) = 0;
  // The most partitions this backend starts in one start_together() call (1: it does not take
  // partitions together).
  [[nodiscard]] virtual size_t partitions_together() const { return 1; }
  // Several partitions of one key and circuit (every request names the first one's pk and cs; 1 to
  // partitions_together()) started together where the backend shares work between them
  // (cuda_backend: one streamed copy of the key's chunks for all): a pending each, in order, as
  // start() gives them. An error ends them all; with invalid_argument, failed_precondition or
  // resource_exhausted none was started (work begun for them is drained and dropped) and the device
  // is as it was (the caller may start each alone: start() then says which request, if any, is bad).
  // failed_precondition: this key's partitions are never taken together here (its plan);
  // resource_exhausted: not this many (fewer may fit). The default takes none together.
  virtual result<std::vector<pending_ptr>> start_together(std::span<const request> reqs) {
    return failed_precondition(std::string(name()) + " does not take partitions together (" +
                               std::to_string(reqs.size()) + " given)");
  }
  // Assembles the proof (and self-verifies it when asked). Only accepts this backend's pendings.
  virtual result<output> finish(pending_ptr p) = 0;
  // Host memory one partition of a circuit holds from start() until finish() returns, witness
  // included: what a scheduler reserves per in-flight partition (src/engine/key_records.hpp). Work this
  // backend keeps in memory taken once at creation (a GPU's VRAM region, pinned staging) is not in it.
  [[nodiscard]] virtual uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const = 0;
};

// Key/circuit consistency, checked by every backend's start(): variable and public counts, domain
// large enough for the QAP rows, and every point vector the size the layout implies.
// invalid_argument with expected and got.
template <class Family>
status check_key_matches_circuit(const basic_proving_key<Family>& pk,
                                 const r1cs::basic_constraint_system<typename Family::fr>& cs);

// start() then finish() on one backend.
template <class Family>
result<basic_prove_output<Family>> prove(basic_backend<Family>& be, const basic_prove_request<Family>& req);

using blinding = basic_blinding<ec::bls12_381::family>;
using prove_request = basic_prove_request<ec::bls12_381::family>;
using prove_output = basic_prove_output<ec::bls12_381::family>;
using backend = basic_backend<ec::bls12_381::family>;

namespace bn254 {
using blinding = basic_blinding<ec::bn254::family>;
using prove_request = basic_prove_request<ec::bn254::family>;
using prove_output = basic_prove_output<ec::bn254::family>;
using backend = basic_backend<ec::bn254::family>;
}  // namespace bn254

}  // namespace pp::groth16

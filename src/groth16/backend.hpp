// The prover backend contract (docs/design.md, "Layers and data flow"): start() does the heavy work (SpMV,
// NTTs, MSMs) and returns as soon as the device is free for the next partition; finish() does the host work
// (assembly, self-verification). CPU and CUDA backends give identical group elements for the same key,
// circuit, witness and (r, s).
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::groth16 {

// The blinding pair (r, s) of one proof.
struct blinding {
  ff::fr r, s;
};

// Uniform (r, s) from std::random_device: 512 random bits per scalar reduced mod r (bias < 2^-256).
blinding random_blinding();

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
struct prove_request {
  const proving_key* pk = nullptr;
  const r1cs::constraint_system* cs = nullptr;
  std::span<const ff::fr> witness;  // 1 | public | aux, Montgomery form
  std::optional<blinding> rs;       // unset: random_blinding()
  prove_options options;
};

// A started proof: backend-specific intermediate results, opaque to callers.
class pending {
 public:
  virtual ~pending() = default;
};
using pending_ptr = std::unique_ptr<pending>;

struct prove_output {
  proof pi;
  prove_timings timings;
};

class backend {
 public:
  virtual ~backend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Validates the request and runs SpMV, NTTs and MSMs. Errors: invalid_argument (witness size,
  // key/circuit mismatch, unsatisfied constraint when options.check_satisfied).
  virtual result<pending_ptr> start(const prove_request& req) = 0;
  // Assembles the proof (and self-verifies it when asked). Only accepts this backend's pendings.
  virtual result<prove_output> finish(pending_ptr p) = 0;
  // Host memory one partition of a circuit holds from start() until finish() returns, witness
  // included: what a scheduler reserves per in-flight partition (src/engine/key_records.hpp). Work this
  // backend keeps in memory taken once at creation (a GPU's VRAM region, pinned staging) is not in it.
  [[nodiscard]] virtual uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const = 0;
};

// Key/circuit consistency, checked by every backend's start(): variable and public counts, domain
// large enough for the QAP rows, and every point vector the size the layout implies.
// invalid_argument with expected and got.
status check_key_matches_circuit(const proving_key& pk, const r1cs::constraint_system& cs);

// start() then finish() on one backend.
result<prove_output> prove(backend& be, const prove_request& req);

}  // namespace pp::groth16

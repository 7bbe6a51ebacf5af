// Groth16 on the CPU from QAP evaluations instead of a circuit: the caller has already evaluated
// A w, B w, C w over the constraint rows (bellperson's prover state, what supraseal-c2's ABI
// receives) and says which variables the filtered A and B queries hold. Monomial keys only
// (bellperson layout): h's coefficients on the coset 7<omega>, then the five MSMs and assembly.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "core/result.hpp"
#include "ff/fr.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/proof_assembly.hpp"

namespace pp::groth16 {

// A density bit vector: bit i of words[i / 64] (LSB first) set iff variable i has a point.
struct density_bits {
  std::span<const uint64_t> words;  // at least ceil(bits / 64) words
  uint64_t bits = 0;
};

struct evaluation_request {
  const proving_key* pk = nullptr;  // basis monomial
  // A w, B w, C w over the rows: constraints, then one row per input (a = input, b = c = 0).
  // Zero-padded to the key's domain; at most the domain size each, all three the same size.
  std::span<const ff::fr> a, b, c;
  std::span<const ff::fr> inputs;  // the constant 1, then the public inputs (Montgomery form)
  std::span<const ff::fr> aux;
  // The key's A query holds every input and the aux variables set here; B holds the inputs set in
  // b_inputs and the aux set in b_aux (bellperson's DensityTracker order: inputs, then aux).
  density_bits a_aux, b_inputs, b_aux;
  blinding rs;
};

// The proof, verified against pk->vk with inputs[1..] before it is returned: a proof that fails is
// internal, never returned. invalid_argument (naming the field) when sizes disagree with the key:
// |inputs| = |ic|, |aux| = |l|, density bit counts, |A| = |inputs| + popcount(a_aux),
// |B| = popcount(b_inputs) + popcount(b_aux), a/b/c sizes.
result<proof> prove_from_evaluations(const evaluation_request& req);

// The same checks alone (the ABI runs them on every circuit before proving any).
status check_evaluation_request(const evaluation_request& req);

// The index of the first value of v not below r (not a reduced Montgomery value: its limbs would
// index past the MSMs' buckets), or v.size(); one parallel pass. With copy_to (room for v.size()
// values), v is also copied there in the same pass, each block checked where it was just written
// (the GPU's checked staging, src/cuda/prover/evaluation_staging.cpp). The ABI checks the scalars it is
// handed with it (src/c2/assignment.cpp).
uint64_t first_unreduced(std::span<const ff::fr> v, ff::fr* copy_to = nullptr);

// invalid_argument "NAME[i] is not a reduced scalar (Montgomery form, below r)": what every caller
// of first_unreduced says of the value it found.
status unreduced_scalar(std::string_view name, uint64_t i);

// What follows the five MSMs, shared by every prover from evaluations: the proof assembled with
// req.rs from the sums, then verified against req.pk->vk with inputs[1..] (internal when it fails:
// such a proof is never returned).
result<proof> finish_from_sums(const evaluation_request& req, const msm_sums& sums);

// A prover from evaluations other than the CPU's prove_from_evaluations (devices/gpu_evaluation.hpp
// makes one per GPU). prove() returns finish_from_sums' proof, so every backend gives the same bytes
// for the same request; up to lanes() calls run at once, more wait for a lane.
class evaluation_backend {
 public:
  virtual ~evaluation_backend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  [[nodiscard]] virtual uint32_t lanes() const = 0;
  virtual result<proof> prove(const evaluation_request& req) = 0;
  // Drops whatever the backend keeps of pk (a device copy, pinned host ranges) because pk is about
  // to be freed; waits for the proofs in flight.
  virtual void forget(const proving_key& pk) = 0;
};

}  // namespace pp::groth16

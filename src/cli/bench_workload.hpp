// bench_workload: what `proofpipe bench` proves: the synthetic PoRep-shaped circuit at 2^k
// constraints with an INSECURE key (its points made on a GPU when one serves, as a 2^27 key would
// take hours on the CPU), or a snarkjs zkey with a witness file. The key is made before any engine
// exists, so the GPU that makes its points is free of the engine's VRAM region.
#pragma once
#include <cstdint>
#include <string>

#include "cli/command_run.hpp"
#include "core/result.hpp"
#include "engine/engine.hpp"
#include "groth16/keys.hpp"

namespace pp::cli {

struct bench_workload {
  engine::key_source key;
  engine::witness_source witness;  // every partition proves this witness
  std::string label;               // "synthetic 2^27" or the zkey's path
};

// Largest synthetic circuit: a full PoRep partition (130.3M constraints in the 2^27 domain).
inline constexpr uint32_t max_bench_log_constraints = 27;

// Host memory a PoRep-shaped constraint takes, at the least: its circuit (the constraints, the
// witness, the compact matrices: ~265 bytes measured at 2^22 and 2^24, what `proofpipe plan
// --porep-log` holds), and beside it a benchmark's INSECURE key (a bellperson 2^27 key is 44.96 GiB
// for 130.3M constraints: ~370 bytes). A 2^20 `bench --porep` on the CPU peaked at ~890 bytes a
// constraint, so work refused by these figures could not have finished.
inline constexpr uint64_t synthetic_circuit_host_bytes = 280;
inline constexpr uint64_t synthetic_key_host_bytes = 360;

// The synthetic PoRep-shaped circuit and its INSECURE key in `basis`'s layout: monomial is
// bellperson's (a Filecoin key: B's points only for the variables B uses), odd_coset_lagrange
// snarkjs's (B's points for every variable: ~1.4x the points at PoRep's 25% B density). gpu_points:
// the ordinal of the GPU that makes the key's points, or -1 for the CPU. invalid_argument outside
// [2, max_bench_log_constraints]; resource_exhausted, before anything is made, when the host's
// available memory is below synthetic_circuit_host_bytes + synthetic_key_host_bytes a constraint.
result<bench_workload> make_synthetic_workload(command_run& run, uint32_t log_constraints, groth16::h_basis basis,
                                               int gpu_points);
// A snarkjs zkey with its witness file (read by the engine when the key is first used).
result<bench_workload> make_zkey_workload(const std::string& zkey, const std::string& wtns);

}  // namespace pp::cli

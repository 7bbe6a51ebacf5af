// stored_proof: how cluster mode keeps proofs in the database, per curve. A row's `curve` column
// names the curve as snarkjs does ("bls12381", "bn128"); the proof is bellperson's 192 bytes for
// BLS12-381 and snarkjs proof.json text for BN254 (which has no bellperson encoding; that JSON is what
// the daemon returns for BN254 proofs anyway); public signals are snarkjs public.json for both.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cluster/job_store.hpp"
#include "cluster/partition_claimer.hpp"
#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "engine/engine_types.hpp"

namespace pp::cluster {

// The curve column's value for c, and back: invalid_argument for a name that is neither.
[[nodiscard]] std::string curve_column(ec::curve_id c);
[[nodiscard]] result<ec::curve_id> curve_from_column(std::string_view text);

// A proved partition as pp_results stores it (device left to the caller).
[[nodiscard]] partition_output store_proof(const engine::partition_result& proved);

// A stored result read back with the checks of the curve's readers (points on the curve and in the
// subgroup, signals below r); invalid_argument naming what is wrong.
using stored_output = std::variant<engine::curve_proof, engine::bn254::curve_proof>;
[[nodiscard]] result<stored_output> read_stored_proof(const result_row& row);

// pp_jobs.proof of a job whose every row is of one curve: BLS12-381's 192-byte proofs concatenated
// in partition order; BN254's proof.json documents as one JSON array, in partition order.
[[nodiscard]] std::vector<uint8_t> assemble_job_proof(const std::vector<result_row>& rows);

}  // namespace pp::cluster

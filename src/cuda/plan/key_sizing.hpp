// key_sizing: what the VRAM plan (key_layout.hpp) needs to know of a key and its circuit (key_shape)
// and the MSM chunkings it may pick, each with the workspace its five MSMs take (msm_workspace.hpp):
// sizes only, the same on every host, with or without a GPU. The CUDA backend and `proofpipe plan`
// size a key here. Plain C++.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::cuda {

// A key's domain and point counts, from the key or from the key a setup would make.
struct key_sizes {
  msm_group g1 = msm_g1, g2 = msm_g2;  // the key's curve's (BLS12-381's unless of() a BN254 key)
  uint64_t domain = 0;
  groth16::h_basis basis = groth16::h_basis::odd_coset_lagrange;
  std::array<uint64_t, key_table_count> points{};
  bool a_filtered = false, b_filtered = false;  // density-filtered A / B queries: their gather lists are resident
  template <class Family>
  static key_sizes of(const groth16::basic_proving_key<Family>& pk);
  // The key groth16::setup_insecure makes for cs in `basis` (its domain rule and, for bellperson's
  // monomial basis, A and B filtered by column density), without making it.
  static result<key_sizes> of_setup(const r1cs::constraint_system& cs, groth16::h_basis basis);
};

// The most bytes of a streamed matrices' row chunk: the chunking every streaming plan can take, and
// a wider one it takes where its lane holds the wider slots anyway (plan_key); wide == bytes: none.
struct matrix_row_chunks {
  uint64_t bytes = 0, wide = 0;
};

// The shape of (key, cs) for the plan; compact: cs's compact matrices (sizes, and their row chunks
// in both of `rows`' sizes should they be streamed). Either curve's (instantiated in key_sizing.cpp).
template <class Fr>
result<key_shape> shape_key(const key_sizes& key, const r1cs::basic_constraint_system<Fr>& cs,
                            const compact_r1cs& compact, uint64_t staging_bytes, matrix_row_chunks rows,
                            uint32_t h_copies_max);
template <class Family>
result<key_shape> shape_key(const groth16::basic_proving_key<Family>& pk,
                            const r1cs::basic_constraint_system<typename Family::fr>& cs, const compact_r1cs& compact,
                            uint64_t staging_bytes, matrix_row_chunks rows, uint32_t h_copies_max);

// The shape of an evaluation key (req checked by groth16::check_evaluation_request): no matrices, the
// witness is the request's inputs and aux, A and B always gathered.
result<key_shape> shape_evaluation_key(const groth16::evaluation_request& req, uint64_t staging_bytes,
                                       uint32_t h_copies_max);

// The MSM chunkings the plan may pick, largest first: the tuning's (2^25 G1 / 2^24 G2 points), then
// halving down to 2^10 / 2^9, none above max_g1_chunk (0: no cap), with the largest workspace of the
// five MSMs of s at each, streamed, and the larger ones of tables resident (msm_chunking).
result<std::vector<msm_chunking>> chunking_options(const key_shape& s, uint64_t max_g1_chunk);

}  // namespace pp::cuda

// One ABI Assignment (proofpipe_c2.h) checked field by field and viewed as a
// groth16::evaluation_request over the SRS's key. The reference checks these with assert (or not
// at all); here every mismatch is invalid_argument naming "provers[i].<field>".
#pragma once
#include <cstddef>

#include "c2/proofpipe_c2.h"
#include "core/result.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/keys.hpp"

namespace pp::c2 {

// Null pointers (where a size says data is there), bit lengths (a_aux, b_aux = aux size; b_inp =
// input size), each declared popcount against the bits, the SRS's point counts (l = aux, a = inputs
// + a_aux_popcount, b_g1 = b_g2 = b_inp_popcount + b_aux_popcount, ic = inputs) and abc_size (at
// least the inputs, at most the domain), then groth16::check_evaluation_request.
result<groth16::evaluation_request> to_evaluation_request(const Assignment& p, size_t index,
                                                          const groth16::proving_key& pk);

}  // namespace pp::c2

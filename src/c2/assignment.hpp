// One ABI Assignment (proofpipe_c2.h) checked field by field and viewed as a
// groth16::evaluation_request over the SRS's key. The reference checks these with assert (or not
// at all); here every mismatch is invalid_argument naming "provers[i].<field>".
#pragma once
#include <cstddef>

#include "core/status.hpp"

#include "c2/proofpipe_c2.h"
#include "core/result.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/keys.hpp"

namespace pp::c2 {

// Null pointers (where a size says data is there), bit lengths (a_aux, b_aux = aux size; b_inp =
// input size), each declared popcount against the bits, the SRS's point counts (l = aux, a = inputs
// + a_aux_popcount, b_g1 = b_g2 = b_inp_popcount + b_aux_popcount, ic = inputs) and abc_size (at
// least the inputs, at most the domain), then groth16::check_evaluation_request. The values are not
// read here (check_reduced: in the lane that proves the circuit, overlapped with the GPU's work).
result<groth16::evaluation_request> to_evaluation_request(const Assignment& p, size_t index,
                                                          const groth16::proving_key& pk);

// Which of a request's values check_reduced reads.
enum class scalar_vectors { witness, all };

// Every value below r (a reduced Montgomery value): the inputs and aux, and with
// scalar_vectors::all also a, b, c (the GPU path checks those as it stages them,
// cuda_backend::prove_evaluations). invalid_argument "provers[index].<field>[i] is not a reduced
// scalar ..." for the first that is not, the vectors taken in the order a, b, c, inputs, aux.
status check_reduced(const groth16::evaluation_request& req, size_t index, scalar_vectors which);

}  // namespace pp::c2

// The ABI's structs (proofpipe_c2.h) against proofpipe's types: each C type has the size, alignment
// and member offsets of the proofpipe type it is read as, so the library reinterprets caller memory
// (fr_t arrays as ff::fr spans, proofs as groth16::proof) without copying. Table: docs/c2_abi.md.
#pragma once
#include <cstddef>

#include "c2/proofpipe_c2.h"
#include "ec/affine.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "groth16/proof.hpp"

namespace pp::c2 {

static_assert(sizeof(fr_t) == 32 && sizeof(fr_t) == sizeof(ff::fr) && alignof(fr_t) == alignof(ff::fr));
static_assert(sizeof(fp_t) == 48 && sizeof(fp_t) == sizeof(ff::fp));
static_assert(sizeof(fp2_t) == 96 && sizeof(fp2_t) == sizeof(ff::fp2));
static_assert(offsetof(fp2_t, c1) == offsetof(ff::fp2, c1));
static_assert(sizeof(affine_t) == sizeof(ec::g1_affine) && offsetof(affine_t, Y) == offsetof(ec::g1_affine, y));
static_assert(sizeof(affine_fp2_t) == sizeof(ec::g2_affine) && offsetof(affine_fp2_t, Y) == offsetof(ec::g2_affine, y));
static_assert(sizeof(groth16_proof) == 384 && sizeof(groth16_proof) == sizeof(groth16::proof));
static_assert(offsetof(groth16_proof, b) == offsetof(groth16::proof, b) &&
              offsetof(groth16_proof, c) == offsetof(groth16::proof, c));

// Assignment<fr_t> of groth16_cuda.cu / c2/src/lib.rs: 17 eight-byte fields, no padding.
static_assert(sizeof(Assignment) == 17 * 8);
static_assert(offsetof(Assignment, a_aux_density) == 0 && offsetof(Assignment, a_aux_popcount) == 16);
static_assert(offsetof(Assignment, b_inp_density) == 24 && offsetof(Assignment, b_inp_popcount) == 40);
static_assert(offsetof(Assignment, b_aux_density) == 48 && offsetof(Assignment, b_aux_popcount) == 64);
static_assert(offsetof(Assignment, a) == 72 && offsetof(Assignment, b) == 80 && offsetof(Assignment, c) == 88);
static_assert(offsetof(Assignment, abc_size) == 96);
static_assert(offsetof(Assignment, inp_assignment_data) == 104 && offsetof(Assignment, inp_assignment_size) == 112);
static_assert(offsetof(Assignment, aux_assignment_data) == 120 && offsetof(Assignment, aux_assignment_size) == 128);

// RustError::by_value of sppark's util/rusterror.h, and SRS::by_value (one pointer).
static_assert(sizeof(RustError) == 16 && offsetof(RustError, message) == 8);
static_assert(sizeof(SRS) == sizeof(void*));

}  // namespace pp::c2

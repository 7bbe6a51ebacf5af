/* proofpipe_c2.h: the C ABI of Supranational's supraseal-c2 (supra_seal c2/cuda/groth16_cuda.cu,
 * c2/cuda/groth16_srs.cuh, c2/src/lib.rs), served by proofpipe. Same unmangled symbols, signatures,
 * struct layouts and semantics, so a program linked against the reference links against
 * libproofpipe_c2 unchanged. Field by field mapping to proofpipe's types: docs/c2_abi.md.
 * Usable from C and C++ (C++ sees references where the reference has them; same ABI as pointers). */
#ifndef PROOFPIPE_C2_H
#define PROOFPIPE_C2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BLS12-381 scalar: 4 x u64 little-endian limbs, Montgomery form (as blst_fr). */
typedef struct { uint64_t l[4]; } fr_t;
/* Base-field element: 6 x u64 little-endian limbs, Montgomery form (as blst_fp). */
typedef struct { uint64_t l[6]; } fp_t;
/* Quadratic extension element: c0 then c1 (as blst_fp2). */
typedef struct { fp_t c0, c1; } fp2_t;
/* Affine points {X, Y}; the point at infinity is X = Y = 0, no flag (as sppark's affine_t). */
typedef struct { fp_t X, Y; } affine_t;
typedef struct { fp2_t X, Y; } affine_fp2_t;

/* One proof: 96 + 192 + 96 = 384 bytes. */
typedef struct { affine_t a; affine_fp2_t b; affine_t c; } groth16_proof;

/* One circuit's prover state as bellperson's cuda-supraseal path fills it (c2/src/lib.rs). The
 * density vectors are bellperson's DensityTracker bits, LSB first in 64-bit words. */
typedef struct {
  const uint64_t* a_aux_density; /* aux variables in the A query */
  size_t a_aux_bit_len;          /* = aux_assignment_size */
  size_t a_aux_popcount;
  const uint64_t* b_inp_density; /* inputs in the B query */
  size_t b_inp_bit_len;          /* = inp_assignment_size */
  size_t b_inp_popcount;
  const uint64_t* b_aux_density; /* aux variables in the B query */
  size_t b_aux_bit_len;          /* = aux_assignment_size */
  size_t b_aux_popcount;
  const fr_t* a; /* A w, B w, C w over constraints + inputs rows (abc_size each, unpadded) */
  const fr_t* b;
  const fr_t* c;
  size_t abc_size;
  const fr_t* inp_assignment_data; /* the constant 1, then the public inputs */
  size_t inp_assignment_size;
  const fr_t* aux_assignment_data;
  size_t aux_assignment_size;
} Assignment;

/* Returned by value; code 0 is success. message is strdup'd (or null): the caller frees it. */
typedef struct {
  int code;
  char* message;
} RustError;

/* One reference-counted pointer to a loaded (or loading) parameters file. */
typedef struct { void* ptr; } SRS;

#if defined(__cplusplus) && !defined(PROOFPIPE_C2_POINTERS)
/* The reference's C++ declarations take references; under extern "C" they are the same symbols as
 * the pointer declarations below (PROOFPIPE_C2_POINTERS selects those in C++ too). */
RustError create_SRS(SRS& ret, const char* srs_path, bool cache);
void evict_SRS(const SRS& ref);
void drop_SRS(SRS& ref);
SRS clone_SRS(const SRS& rhs);
RustError generate_groth16_proofs_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                    const fr_t s_s[], groth16_proof proofs[], SRS& srs);
#else
/* Starts reading the bellperson parameters file at srs_path and returns before it is read (the
 * first generate_groth16_proofs_c waits). cache: share one SRS per path (least recently used of 4). */
RustError create_SRS(SRS* ret, const char* srs_path, bool cache);
/* Drops the cache's reference to this SRS's path (only matters for cache = true). */
void evict_SRS(const SRS* ref);
/* Drops this reference; the last one frees the parameters. */
void drop_SRS(SRS* ref);
/* The same pointer with its count raised. */
SRS clone_SRS(const SRS* rhs);
/* num_circuits proofs with blinding r_s[i], s_s[i] (Montgomery form), each verified against the
 * SRS's verifying key before it is written. Non-zero code (message naming the field) on bad input;
 * EINVAL for num_circuits above 2^20. */
RustError generate_groth16_proofs_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                    const fr_t s_s[], groth16_proof proofs[], SRS* srs);
#endif

#ifdef __cplusplus
}
#endif

#endif /* PROOFPIPE_C2_H */

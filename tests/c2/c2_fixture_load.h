/* Loads DIR/assign.bin (c2_fixture_format.h) and fills one Assignment per circuit exactly as
 * supra_seal's c2/src/lib.rs generate_groth16_proof does: the density vectors and their popcounts
 * shared by every circuit, bit lengths from the assignment sizes, abc_size unpadded. Header-only C. */
#ifndef C2_FIXTURE_LOAD_H
#define C2_FIXTURE_LOAD_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2_fixture_format.h"
#include "proofpipe_c2.h"

typedef struct {
  c2_fixture_header h;
  unsigned char* bytes; /* the whole file; everything below points into it */
  Assignment* provers;
  const fr_t* r_s;
  const fr_t* s_s;
} c2_fixture;

static void c2_fixture_free(c2_fixture* f) {
  free(f->bytes);
  free(f->provers);
  memset(f, 0, sizeof *f);
}

/* 0 on success; otherwise prints why and returns -1. */
static int c2_fixture_load(const char* dir, c2_fixture* f) {
  char path[4096];
  memset(f, 0, sizeof *f);
  snprintf(path, sizeof path, "%s/assign.bin", dir);
  FILE* in = fopen(path, "rb");
  if (!in) { perror(path); return -1; }
  fseek(in, 0, SEEK_END);
  long size = ftell(in);
  fseek(in, 0, SEEK_SET);
  f->bytes = (unsigned char*)malloc((size_t)size);
  if (!f->bytes || fread(f->bytes, 1, (size_t)size, in) != (size_t)size) {
    fprintf(stderr, "%s: read failed\n", path);
    fclose(in);
    c2_fixture_free(f);
    return -1;
  }
  fclose(in);
  memcpy(&f->h, f->bytes, sizeof f->h);
  if (memcmp(f->h.magic, C2_FIXTURE_MAGIC, 8) != 0) {
    fprintf(stderr, "%s: not a c2_fixture file\n", path);
    c2_fixture_free(f);
    return -1;
  }
  const c2_fixture_header* h = &f->h;
  const uint64_t* words = (const uint64_t*)(f->bytes + sizeof *h);
  const uint64_t* a_aux = words;
  const uint64_t* b_inp = a_aux + (h->aux_size + 63) / 64;
  const uint64_t* b_aux = b_inp + (h->inp_size + 63) / 64;
  const fr_t* data = (const fr_t*)(b_aux + (h->aux_size + 63) / 64);
  const size_t per_circuit = 3 * h->abc_size + h->inp_size + h->aux_size;
  f->provers = (Assignment*)calloc(h->num_circuits ? h->num_circuits : 1, sizeof(Assignment));
  for (uint64_t k = 0; k < h->num_circuits; ++k) {
    const fr_t* d = data;
    Assignment* p = &f->provers[k];
    p->a_aux_density = a_aux;
    p->a_aux_bit_len = h->aux_size;
    p->a_aux_popcount = h->a_aux_popcount;
    p->b_inp_density = b_inp;
    p->b_inp_bit_len = h->inp_size;
    p->b_inp_popcount = h->b_inp_popcount;
    p->b_aux_density = b_aux;
    p->b_aux_bit_len = h->aux_size;
    p->b_aux_popcount = h->b_aux_popcount;
    p->a = d;
    p->b = d + h->abc_size;
    p->c = d + 2 * h->abc_size;
    p->abc_size = h->abc_size;
    p->inp_assignment_data = d + 3 * h->abc_size;
    p->inp_assignment_size = h->inp_size;
    p->aux_assignment_data = d + 3 * h->abc_size + h->inp_size;
    p->aux_assignment_size = h->aux_size;
  }
  f->r_s = data + per_circuit;
  f->s_s = f->r_s + h->num_circuits;
  if ((const unsigned char*)(f->s_s + h->num_circuits) != f->bytes + size) {
    fprintf(stderr, "%s: size does not match its header\n", path);
    c2_fixture_free(f);
    return -1;
  }
  return 0;
}

#endif

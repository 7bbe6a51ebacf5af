/* DIR/assign.bin, as c2_fixture writes it and the C drivers read it (host byte order, 64-bit words):
 * header; a_aux, b_inp, b_aux density words (ceil(bits / 64) each); a, b, c (abc_size fr_t each),
 * inp (inp_size), aux (aux_size), once: every circuit of the call proves this witness (one key
 * proves one circuit) and points at the same memory; then r[num_circuits], s[num_circuits]. */
#ifndef C2_FIXTURE_FORMAT_H
#define C2_FIXTURE_FORMAT_H
#include <stdint.h>

#define C2_FIXTURE_MAGIC "PPC2FIX2"

typedef struct {
  char magic[8];
  uint64_t num_circuits, inp_size, aux_size, abc_size;
  uint64_t a_aux_popcount, b_inp_popcount, b_aux_popcount;
  uint64_t log_n;
} c2_fixture_header;

#endif

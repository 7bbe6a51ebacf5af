/* c2_abi_test DIR OUT: drives proofpipe_c2.h from C as bellperson's cuda-supraseal path does, on the
 * fixture c2_fixture made in DIR. Proves each circuit alone and all in one call (the proofs must be
 * equal byte for byte; OUT receives them for `c2_fixture verify`), exercises clone/drop/cache/evict,
 * then feeds bad input: each must come back as a non-zero RustError whose message names the field,
 * leaving proofs[] untouched. Exit 0 only when every check passed. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2_fixture_load.h"
#include "proofpipe_c2.h"

static int g_failures = 0;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      ++g_failures;                                        \
    }                                                      \
  } while (0)

/* Expects an error whose message contains `needle`; frees the message. */
static void expect_error(RustError e, const char* needle, const char* what) {
  CHECK(e.code != 0, "%s: expected an error, got success", what);
  CHECK(e.message != NULL && strstr(e.message, needle) != NULL, "%s: message '%s' does not name '%s'", what,
        e.message ? e.message : "(null)", needle);
  if (e.code != 0) printf("ok   %-40s -> code %d: %s\n", what, e.code, e.message ? e.message : "(null)");
  free(e.message);
}

static void expect_ok(RustError e, const char* what) {
  CHECK(e.code == 0, "%s: code %d: %s", what, e.code, e.message ? e.message : "(null)");
  free(e.message);
}

static unsigned char* read_file(const char* path, size_t* size) {
  FILE* in = fopen(path, "rb");
  if (!in) return NULL;
  fseek(in, 0, SEEK_END);
  *size = (size_t)ftell(in);
  fseek(in, 0, SEEK_SET);
  unsigned char* b = (unsigned char*)malloc(*size);
  if (b && fread(b, 1, *size, in) != *size) { free(b); b = NULL; }
  fclose(in);
  return b;
}

static void write_file(const char* path, const void* p, size_t n) {
  FILE* out = fopen(path, "wb");
  CHECK(out && fwrite(p, 1, n, out) == n, "writing %s", path);
  if (out) fclose(out);
}

static uint32_t be32(const unsigned char* p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Offset of the first point of section s of a bellperson params file: 0 ic, 1 h, 2 l, 3 a, 4 b_g1. */
static size_t section_offset(const unsigned char* b, int s) {
  size_t off = 3 * 96 + 3 * 192;
  for (int i = 0; i < s; ++i) off += 4 + (size_t)be32(b + off) * 96;
  return off + 4;
}

/* A params file derived from the good one: create_SRS succeeds (the file opens) and the first
 * prove reports `needle`. */
static void expect_bad_params(const char* path, const unsigned char* bytes, size_t size, const c2_fixture* f,
                              const char* needle, const char* what) {
  write_file(path, bytes, size);
  SRS srs = {0};
  RustError e = create_SRS(&srs, path, false);
  if (e.code != 0) {
    expect_error(e, needle, what);
    return;
  }
  groth16_proof proof;
  expect_error(generate_groth16_proofs_c(f->provers, 1, f->r_s, f->s_s, &proof, &srs), needle, what);
  drop_SRS(&srs);
}

/* One bad Assignment: proofs[] must stay as it was. */
static void expect_bad_call(const Assignment* p, size_t n, const c2_fixture* f, SRS* srs, const char* needle,
                            const char* what) {
  groth16_proof proofs[2];
  memset(proofs, 0xab, sizeof proofs);
  expect_error(generate_groth16_proofs_c(p, n, f->r_s, f->s_s, proofs, srs), needle, what);
  unsigned char untouched[sizeof proofs];
  memset(untouched, 0xab, sizeof untouched);
  CHECK(memcmp(proofs, untouched, sizeof proofs) == 0, "%s: proofs[] was written on error", what);
}

/* One thread's call with every circuit, for the concurrent-callers check. */
typedef struct {
  const c2_fixture* f;
  SRS* srs;
  groth16_proof* out;
  RustError err;
} caller;

static void* call_all(void* arg) {
  caller* c = (caller*)arg;
  c->err = generate_groth16_proofs_c(c->f->provers, c->f->h.num_circuits, c->f->r_s, c->f->s_s, c->out, c->srs);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c2_abi_test DIR OUT\n");
    return 2;
  }
  const char* dir = argv[1];
  c2_fixture f;
  if (c2_fixture_load(dir, &f) != 0) return 2;
  const size_t n = f.h.num_circuits;
  CHECK(n >= 2, "the fixture needs at least two circuits, has %zu", n);
  char params[4096];
  snprintf(params, sizeof params, "%s/params.bin", dir);

  /* Good calls: every circuit alone, then all in one call; the same (r, s) give the same bytes. */
  SRS srs = {0};
  expect_ok(create_SRS(&srs, params, false), "create_SRS");
  groth16_proof* one = (groth16_proof*)calloc(n, sizeof(groth16_proof));
  groth16_proof* all = (groth16_proof*)calloc(n, sizeof(groth16_proof));
  for (size_t k = 0; k < n; ++k) {
    expect_ok(generate_groth16_proofs_c(&f.provers[k], 1, &f.r_s[k], &f.s_s[k], &one[k], &srs), "one circuit");
  }
  expect_ok(generate_groth16_proofs_c(f.provers, n, f.r_s, f.s_s, all, &srs), "all circuits in one call");
  CHECK(memcmp(one, all, n * sizeof(groth16_proof)) == 0, "one-circuit and many-circuit calls differ");
  CHECK(memcmp(&all[0], &all[1], sizeof(groth16_proof)) != 0, "different (r, s) gave the same proof");
  write_file(argv[2], all, n * sizeof(groth16_proof));
  expect_ok(generate_groth16_proofs_c(f.provers, 0, NULL, NULL, NULL, &srs), "zero circuits");

  /* Two threads calling at once, on one SRS: both succeed with the same proofs as above. */
  caller callers[2];
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i) {
    callers[i] = (caller){&f, &srs, (groth16_proof*)calloc(n, sizeof(groth16_proof)), {0, NULL}};
    pthread_create(&threads[i], NULL, call_all, &callers[i]);
  }
  for (int i = 0; i < 2; ++i) {
    pthread_join(threads[i], NULL);
    expect_ok(callers[i].err, "a concurrent caller");
    CHECK(memcmp(callers[i].out, all, n * sizeof(groth16_proof)) == 0, "concurrent caller %d proved differently", i);
    free(callers[i].out);
  }

  /* clone_SRS: the same pointer, and the original still proves after the clone is dropped. */
  SRS copy = clone_SRS(&srs);
  CHECK(copy.ptr == srs.ptr, "clone_SRS returned another pointer");
  drop_SRS(&copy);
  CHECK(copy.ptr == NULL, "drop_SRS left the pointer set");
  groth16_proof again;
  expect_ok(generate_groth16_proofs_c(f.provers, 1, f.r_s, f.s_s, &again, &srs), "prove after dropping a clone");
  CHECK(memcmp(&again, &all[0], sizeof again) == 0, "proof changed after clone/drop");

  /* cache = true shares one SRS per path until evicted; cache = false never shares. */
  SRS c1 = {0}, c2 = {0}, c3 = {0}, u1 = {0};
  expect_ok(create_SRS(&c1, params, true), "create_SRS cached");
  expect_ok(create_SRS(&c2, params, true), "create_SRS cached again");
  CHECK(c1.ptr == c2.ptr, "cache = true did not share the SRS");
  expect_ok(create_SRS(&u1, params, false), "create_SRS uncached");
  CHECK(u1.ptr != c1.ptr && u1.ptr != srs.ptr, "cache = false shared an SRS");
  evict_SRS(&c1);
  expect_ok(create_SRS(&c3, params, true), "create_SRS cached after evict");
  CHECK(c3.ptr != c1.ptr, "evict_SRS did not drop the cached SRS");
  expect_ok(generate_groth16_proofs_c(f.provers, 1, f.r_s, f.s_s, &again, &c1), "prove with an evicted SRS");
  CHECK(memcmp(&again, &all[0], sizeof again) == 0, "evicted SRS proved differently");
  evict_SRS(&c3);
  drop_SRS(&c1);
  drop_SRS(&c2);
  drop_SRS(&c3);
  drop_SRS(&u1);

  /* Bad calls. */
  groth16_proof proof;
  expect_error(generate_groth16_proofs_c(NULL, 1, f.r_s, f.s_s, &proof, &srs), "provers", "null provers");
  expect_error(generate_groth16_proofs_c(f.provers, 1, NULL, f.s_s, &proof, &srs), "r_s", "null r_s");
  expect_error(generate_groth16_proofs_c(f.provers, 1, f.r_s, NULL, &proof, &srs), "s_s", "null s_s");
  expect_error(generate_groth16_proofs_c(f.provers, 1, f.r_s, f.s_s, NULL, &srs), "proofs", "null proofs");
  RustError huge = generate_groth16_proofs_c(f.provers, SIZE_MAX, f.r_s, f.s_s, &proof, &srs);
  CHECK(huge.code == EINVAL, "num_circuits SIZE_MAX: code %d, expected EINVAL (%d)", huge.code, EINVAL);
  expect_error(huge, "num_circuits", "num_circuits SIZE_MAX");
  SRS none = {0};
  expect_error(generate_groth16_proofs_c(f.provers, 1, f.r_s, f.s_s, &proof, &none), "srs", "null srs");
  expect_error(generate_groth16_proofs_c(f.provers, 1, f.r_s, f.s_s, &proof, NULL), "srs", "null srs reference");
  expect_error(create_SRS(&none, NULL, false), "srs_path", "null srs_path");

  Assignment p[2];
  p[0] = f.provers[0];
  p[1] = f.provers[1];
  p[1].aux_assignment_size += 1;
  expect_bad_call(p, 2, &f, &srs, "provers[1].aux_assignment_size", "aux size off the SRS");
  p[1] = f.provers[1];
  p[0].inp_assignment_size -= 1;
  expect_bad_call(p, 1, &f, &srs, "provers[0].inp_assignment_size", "input size off the SRS");
  p[0] = f.provers[0];
  p[0].b_inp_bit_len += 1;
  expect_bad_call(p, 1, &f, &srs, "provers[0].b_inp_bit_len", "bit length off the input size");
  p[0] = f.provers[0];
  p[0].a_aux_popcount += 1;
  expect_bad_call(p, 1, &f, &srs, "provers[0].a_aux_popcount", "declared popcount off the bits");
  p[0] = f.provers[0];
  p[0].aux_assignment_data = NULL;
  expect_bad_call(p, 1, &f, &srs, "provers[0].aux_assignment_data", "null aux assignment");
  p[0] = f.provers[0];
  p[0].b_aux_density = NULL;
  expect_bad_call(p, 1, &f, &srs, "provers[0].b_aux_density", "null b_aux density");
  p[0] = f.provers[0];
  p[0].c = NULL;
  expect_bad_call(p, 1, &f, &srs, "provers[0].c", "null c");
  p[0] = f.provers[0];
  p[0].abc_size = ((size_t)1 << f.h.log_n) + 1;
  expect_bad_call(p, 1, &f, &srs, "provers[0].abc_size", "abc_size past the domain");

  /* Bits that agree with their declared popcount but not with the SRS: one bit moved keeps the
   * count (so the SRS sizes pass) yet selects other variables. Moved from a variable to one with
   * another value, the B scalars change, so the proof fails its check. */
  const size_t aux_words = (f.h.aux_size + 63) / 64;
  const fr_t* aux = f.provers[0].aux_assignment_data;
  uint64_t* moved = (uint64_t*)malloc(aux_words * 8);
  memcpy(moved, f.provers[0].b_aux_density, aux_words * 8);
  size_t set = 0, clear = 0;
  while (!((moved[set / 64] >> (set % 64)) & 1)) ++set;
  while (clear < f.h.aux_size &&
         (((moved[clear / 64] >> (clear % 64)) & 1) || memcmp(&aux[clear], &aux[set], sizeof(fr_t)) == 0)) {
    ++clear;
  }
  CHECK(clear < f.h.aux_size, "no aux variable outside B with a value other than aux[%zu]", set);
  if (clear < f.h.aux_size) {
    moved[set / 64] ^= (uint64_t)1 << (set % 64);
    moved[clear / 64] ^= (uint64_t)1 << (clear % 64);
    p[0] = f.provers[0];
    p[0].b_aux_density = moved;
    expect_bad_call(p, 1, &f, &srs, "verif", "density bits moved");
    /* The original bits with one more set: the declared popcount now disagrees with them. */
    memcpy(moved, f.provers[0].b_aux_density, aux_words * 8);
    moved[clear / 64] ^= (uint64_t)1 << (clear % 64);
    expect_bad_call(p, 1, &f, &srs, "provers[0].b_aux_popcount", "density bit added");
  }

  /* Scalars: one not reduced below r; one wrong evaluation (the proof must fail its check). */
  const size_t abc = f.h.abc_size;
  fr_t* a_copy = (fr_t*)malloc(abc * sizeof(fr_t));
  memcpy(a_copy, f.provers[0].a, abc * sizeof(fr_t));
  memset(&a_copy[3], 0xff, sizeof(fr_t));
  p[0] = f.provers[0];
  p[0].a = a_copy;
  expect_bad_call(p, 1, &f, &srs, "provers[0].a[3]", "unreduced scalar");
  memcpy(a_copy, f.provers[0].a, abc * sizeof(fr_t));
  a_copy[0] = a_copy[1].l[0] == a_copy[0].l[0] ? a_copy[2] : a_copy[1];
  if (memcmp(&a_copy[0], &f.provers[0].a[0], sizeof(fr_t)) == 0) a_copy[0].l[0] ^= 1;
  expect_bad_call(p, 1, &f, &srs, "verif", "wrong A evaluation");
  free(a_copy);
  free(moved);

  /* Parameter files: missing; truncated; a point off the curve; another curve's generator. */
  SRS bad = {0};
  char other[4200];
  snprintf(other, sizeof other, "%s/missing.bin", dir);
  RustError e = create_SRS(&bad, other, false);
  CHECK(e.code == ENOENT, "missing params: code %d, expected ENOENT", e.code);
  expect_error(e, "missing.bin", "missing params file");
  size_t size = 0;
  unsigned char* bytes = read_file(params, &size);
  CHECK(bytes != NULL, "reading %s", params);
  snprintf(other, sizeof other, "%s/bad_params.bin", dir);
  expect_bad_params(other, bytes, size - 100, &f, "truncated", "truncated params");
  expect_bad_params(other, bytes, 500, &f, "truncated", "params cut inside the vk");
  unsigned char* mod = (unsigned char*)malloc(size);
  memcpy(mod, bytes, size);
  mod[section_offset(bytes, 3) + 95] ^= 1; /* a[0].y's last byte: still below p, off the curve */
  expect_bad_params(other, mod, size, &f, "a[0]: point not on the BLS12-381 curve", "point off the curve");
  memcpy(mod, bytes, size);
  memset(mod, 0, 96); /* alpha_g1 := BN254's G1 generator (1, 2), big-endian */
  mod[47] = 1;
  mod[95] = 2;
  expect_bad_params(other, mod, size, &f, "not on the BLS12-381 curve", "BN254 point in the vk");
  free(mod);
  free(bytes);

  /* The good SRS still proves after all that. */
  expect_ok(generate_groth16_proofs_c(f.provers, 1, f.r_s, f.s_s, &again, &srs), "prove after the bad inputs");
  CHECK(memcmp(&again, &all[0], sizeof again) == 0, "proof changed after the bad inputs");
  drop_SRS(&srs);
  free(one);
  free(all);
  c2_fixture_free(&f);
  printf("%s: %d failure(s)\n", g_failures ? "FAILED" : "passed", g_failures);
  return g_failures ? 1 : 0;
}

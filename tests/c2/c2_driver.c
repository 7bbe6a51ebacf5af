/* c2_driver DIR OUT [THREADS REPEATS]...: the byte-identity and timing driver for supraseal-c2's C
 * ABI, built once against libproofpipe_c2 (tests/c2) and once against the reference
 * (scripts/c2_byte_identity.sh). Loads the c2_fixture in DIR, create_SRS(DIR/params.bin, false);
 * with C2_DRIVER_SINGLE=PATH in the environment, first one call with circuit 0 alone (it waits for
 * the SRS; its proof goes to PATH); then one call with every circuit (its proofs go to OUT; none
 * when OUT is "-"); then, for each THREADS REPEATS pair in turn, REPEATS timed calls from each of
 * THREADS threads at once.
 * Prints one line per timed call and the median seconds per circuit. Exit 0 when every call
 * succeeded. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c2_fixture_load.h"
#include "proofpipe_c2.h"

typedef struct {
  const c2_fixture* f;
  SRS* srs;
  int repeats;
  double* seconds; /* repeats entries */
  int failed;
} worker;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int prove_n(const c2_fixture* f, size_t n, SRS* srs, groth16_proof* out) {
  RustError e = generate_groth16_proofs_c(f->provers, n, f->r_s, f->s_s, out, srs);
  if (e.code != 0) {
    fprintf(stderr, "generate_groth16_proofs_c: code %d: %s\n", e.code, e.message ? e.message : "(no message)");
    free(e.message);
    return -1;
  }
  return 0;
}

static int prove(const c2_fixture* f, SRS* srs, groth16_proof* out) { return prove_n(f, f->h.num_circuits, srs, out); }

static int write_proofs(const char* path, const groth16_proof* p, size_t n) {
  FILE* out = fopen(path, "wb");
  if (!out || fwrite(p, sizeof(groth16_proof), n, out) != n) {
    perror(path);
    return -1;
  }
  fclose(out);
  return 0;
}

static void* run_worker(void* arg) {
  worker* w = (worker*)arg;
  groth16_proof* out = (groth16_proof*)calloc(w->f->h.num_circuits, sizeof(groth16_proof));
  for (int i = 0; i < w->repeats && !w->failed; ++i) {
    const double t0 = now();
    w->failed = prove(w->f, w->srs, out) != 0;
    w->seconds[i] = now() - t0;
  }
  free(out);
  return NULL;
}

static int cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 == 0) {
    fprintf(stderr, "usage: c2_driver DIR OUT [THREADS REPEATS]...\n");
    return 2;
  }
  /* Line by line: a run stopped at its time limit (scripts/c2_byte_identity.sh) keeps every line
   * printed before it. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  c2_fixture f;
  if (c2_fixture_load(argv[1], &f) != 0) return 2;
  const size_t n = f.h.num_circuits;
  char params[4096];
  snprintf(params, sizeof params, "%s/params.bin", argv[1]);

  double t0 = now();
  SRS srs = {0};
  RustError e = create_SRS(&srs, params, false);
  if (e.code != 0) {
    fprintf(stderr, "create_SRS: code %d: %s\n", e.code, e.message ? e.message : "(no message)");
    free(e.message);
    return 1;
  }
  const double t_create = now() - t0;
  groth16_proof* proofs = (groth16_proof*)calloc(n, sizeof(groth16_proof));
  const char* single = getenv("C2_DRIVER_SINGLE");
  if (single != NULL && n > 0) {
    t0 = now();
    if (prove_n(&f, 1, &srs, proofs) != 0 || write_proofs(single, proofs, 1) != 0) return 1;
    printf("2^%llu domain, circuit 0 alone: create_SRS %.3f s, call (waits for the SRS) %.3f s\n",
           (unsigned long long)f.h.log_n, t_create, now() - t0);
  }
  if (strcmp(argv[2], "-") != 0) {
    t0 = now();
    if (prove(&f, &srs, proofs) != 0) return 1;
    const double t_first = now() - t0;
    if (write_proofs(argv[2], proofs, n) != 0) return 1;
    printf("2^%llu domain, %zu circuits per call: create_SRS %.3f s, first call with them all%s %.3f s\n",
           (unsigned long long)f.h.log_n, n, t_create, single != NULL ? "" : " (waits for the SRS)", t_first);
  }

  int failed = 0;
  for (int arg = 3; arg + 1 < argc; arg += 2) {
    const int threads = atoi(argv[arg]), repeats = atoi(argv[arg + 1]);
    if (repeats <= 0 || threads <= 0) continue;
    worker* w = (worker*)calloc((size_t)threads, sizeof(worker));
    pthread_t* tid = (pthread_t*)calloc((size_t)threads, sizeof(pthread_t));
    double* all = (double*)calloc((size_t)threads * (size_t)repeats, sizeof(double));
    const double wall0 = now();
    for (int i = 0; i < threads; ++i) {
      w[i] = (worker){&f, &srs, repeats, all + (size_t)i * (size_t)repeats, 0};
      pthread_create(&tid[i], NULL, run_worker, &w[i]);
    }
    for (int i = 0; i < threads; ++i) {
      pthread_join(tid[i], NULL);
      failed |= w[i].failed;
    }
    const double wall = now() - wall0;
    for (int i = 0; i < threads * repeats; ++i) printf("call %d: %.3f s\n", i, all[i]);
    qsort(all, (size_t)threads * (size_t)repeats, sizeof(double), cmp_double);
    printf("%d thread(s) x %d call(s) of %zu circuits: median call %.3f s, %.3f s per circuit; wall %.3f s, "
           "%.3f s per circuit overall\n",
           threads, repeats, n, all[threads * repeats / 2], all[threads * repeats / 2] / (double)n, wall,
           wall / ((double)n * threads * repeats));
    free(w);
    free(tid);
    free(all);
  }
  drop_SRS(&srs);
  free(proofs);
  c2_fixture_free(&f);
  return failed;
}

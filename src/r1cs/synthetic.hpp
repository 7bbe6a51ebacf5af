// Random satisfied R1CS instances shaped like a Filecoin PoRep partition, for tests, benchmarks
// and fuzz seeds: mean non-zeros per row of A / B / C, the share of aux variables A and B touch
// (their column density), witness mostly 0 or 1, coefficients from a small per-circuit table as in
// SHA-256 and Poseidon (+-1, +-2^k, a few thousand constants). Built straight into CSR in parallel
// (oneTBB); the circuit is a function of the parameters alone, so one seed gives the same circuit on
// any number of threads.
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/synthetic_stats.hpp"
#include "r1cs/witness.hpp"

namespace pp::r1cs {

struct synthetic_params {
  uint64_t num_constraints = 1024;
  uint64_t num_public = 4;
  uint64_t num_aux = 2048;
  // Mean terms per row: each row gets floor(mean) or floor(mean) + 1. C's mean counts its balancing
  // term (one per row, always the row's last entry), so C has >= 1 term per row.
  double nnz_a = 2.4, nnz_b = 1.0, nnz_c = 2.2;
  // Fraction of aux variables that occur in A (in B) with a non-zero coefficient. A subset of that
  // share of the aux variables is drawn; each member gets one term first (spread evenly over the
  // rows, when there are at least as many terms as members), the other terms pick members
  // uniformly, or zero-valued members where the row needs them (synthetic.cpp). C's terms pick
  // zero-valued aux variables.
  double a_aux_density = 0.997, b_aux_density = 0.25;
  // Share of A's free terms (in rows whose B side is zero) on the constant 1 or a public input.
  double input_terms = 0.01;
  double witness_zero = 0.45, witness_one = 0.45;   // fractions of aux values that are 0 / 1
  // Coefficients drawn for a term: 1, -1, 0, +-2^k (k uniform in [1, 254], the bit weights of
  // SHA-256's words and of packing into Fr), the rest one of num_constants random field elements
  // drawn from the seed (Poseidon's round constants and MDS entries: PoRep's widths 3, 9 and 12,
  // with 8 full and 55 to 57 partial rounds, have 1554 round constants and 234 MDS entries).
  double coeff_one = 0.8, coeff_minus_one = 0.05, coeff_zero = 0.01, coeff_power_of_two = 0.10;
  uint64_t num_constants = 2048;
  uint64_t seed = 1;

  // A full-size PoRep partition is porep(130'300'000, seed): 130.2M aux variables (num_aux is
  // scaled by 130.2 / 130.3), FFT domain 2^27. num_public = 16: public inputs are a negligible share
  // of the work; the exact count of a real partition is not modelled.
  static synthetic_params porep(uint64_t num_constraints, uint64_t seed);
  // Constraints that fill a 2^log_n domain as a full partition fills 2^27 (130.3M), at least 1.
  static uint64_t porep_constraints(int log_n);
};

struct synthetic_circuit {
  constraint_system cs;
  witness w;
};

ff::fr random_fr(uint64_t& state);  // uniform in [0, r), splitmix64 stream

// Satisfied by construction (synthetic.cpp's row_filler says how) with every coefficient in the
// table: +-1, +-2^k for k <= 508 (a product of two drawn powers), +- each constant, so at most
// 4 * 254 + 2 * num_constants distinct values besides +-1 (5112 for the PoRep shape). A row the
// table cannot balance takes an output variable; only a block of rows that runs out of those (none
// expected at the PoRep shape) holds a coefficient outside the table, one per such row.
// invalid_argument for fractions outside [0, 1] or summing past 1, negative means, num_constants
// outside [1, 2^20]; out_of_range past 2^32 variables.
result<synthetic_circuit> make_synthetic(const synthetic_params& p);

}  // namespace pp::r1cs

// Random satisfied R1CS instances shaped like a Filecoin PoRep partition, for tests, benchmarks
// and fuzz seeds: mean non-zeros per row of A / B / C, the share of aux variables A and B touch
// (their column density), witness mostly 0 or 1, coefficients mostly +-1. Built straight into CSR
// in parallel (oneTBB); the circuit is a function of the parameters alone, so one seed gives the
// same circuit on any number of threads.
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
  // term (one per row, on the constant 1, always the row's last entry), so C has >= 1 term per row.
  double nnz_a = 2.4, nnz_b = 1.0, nnz_c = 2.2;
  // Fraction of aux variables that occur in A (in B) with a non-zero coefficient. A subset of that
  // share of the aux variables is drawn; each member gets one term first (spread evenly over the
  // rows, when there are at least as many terms as members), the other terms pick members
  // uniformly. C's terms pick from all aux variables.
  double a_aux_density = 0.997, b_aux_density = 0.25;
  double input_terms = 0.01;                        // share of random terms on the constant 1 or a public input
  double witness_zero = 0.45, witness_one = 0.45;   // fractions of aux values that are 0 / 1
  double coeff_one = 0.8, coeff_minus_one = 0.05, coeff_zero = 0.01;  // the rest are random
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

// invalid_argument for fractions outside [0, 1] or summing past 1, negative means;
// out_of_range past 2^32 variables.
result<synthetic_circuit> make_synthetic(const synthetic_params& p);

}  // namespace pp::r1cs

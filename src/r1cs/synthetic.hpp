// Random satisfiable R1CS instances shaped like real circuits (PoRep: ~2.4/1.0/2.2 non-zeros per row
// in A/B/C, witness mostly 0 or 1, coefficients mostly 1) for tests, benchmarks and fuzz seeds.
// Each C row ends with a term on the constant 1 chosen so that the constraint holds.
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/witness.hpp"

namespace pp::r1cs {

struct synthetic_params {
  uint64_t num_constraints = 1024;
  uint64_t num_public = 4;
  uint64_t num_aux = 2048;
  double nnz_a = 2.4, nnz_b = 1.0, nnz_c = 2.2;  // mean terms per row (C's balancing term excluded)
  double witness_zero = 0.45, witness_one = 0.45;  // fractions of aux values that are 0 / 1
  double coeff_one = 0.8, coeff_minus_one = 0.05, coeff_zero = 0.01;  // the rest are random
  uint64_t seed = 1;
};

struct synthetic_circuit {
  constraint_system cs;
  witness w;
};

ff::fr random_fr(uint64_t& state);  // uniform in [0, r), splitmix64 stream

result<synthetic_circuit> make_synthetic(const synthetic_params& p);

}  // namespace pp::r1cs

// Shape statistics of a circuit and witness: the numbers synthetic_params controls (non-zeros per
// row, aux column density of A and B, share of 0/1 witness values, the coefficients), for tests and
// benchmark tables.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

struct synthetic_stats {
  uint64_t num_constraints = 0, num_public = 0, num_aux = 0;
  double nnz_a = 0, nnz_b = 0, nnz_c = 0;      // stored entries per row
  double a_aux_density = 0, b_aux_density = 0;  // share of aux variables with a non-zero coefficient in A / B
  double witness_zero = 0, witness_one = 0;    // share of aux values equal to 0 / 1
  // Coefficients other than 0, 1 and -1: their share of the stored entries, and how many distinct
  // values A, B, C and the three together hold (what a compact form keeps in a table).
  double other_coeff_share = 0;
  uint64_t distinct_a = 0, distinct_b = 0, distinct_c = 0, distinct_abc = 0;
};

// Parallel (oneTBB). The witness must have cs.num_variables() values (not checked beyond its size:
// a shorter span counts only what is there).
synthetic_stats stats_of(const constraint_system& cs, std::span<const ff::fr> w);

// A small two-column table, one line per statistic.
std::string to_string(const synthetic_stats& s);

}  // namespace pp::r1cs

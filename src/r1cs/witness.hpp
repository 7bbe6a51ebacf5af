// A full witness: w = 1 | public | aux, as Montgomery-form scalars, the layout every R1CS routine
// takes. check_witness is the one place that compares a witness against a constraint system.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/status.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

using witness = std::vector<ff::fr>;

// invalid_argument with the expected and actual sizes when size != cs.num_variables().
status check_witness_size(const constraint_system& cs, std::size_t size);

// Size as above, and w[0] must be the constant 1.
status check_witness(const constraint_system& cs, std::span<const ff::fr> w);

}  // namespace pp::r1cs

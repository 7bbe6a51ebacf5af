// A full witness: w = 1 | public | aux, as Montgomery-form scalars, the layout every R1CS routine
// takes. check_witness is the one place that compares a witness against a constraint system.
#pragma once
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "core/status.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

using witness = std::vector<ff::fr>;
template <class Fr>
using basic_witness = std::vector<Fr>;

// invalid_argument with the expected and actual sizes when size != cs.num_variables().
template <class Fr>
status check_witness_size(const basic_constraint_system<Fr>& cs, std::size_t size);

// Size as above, and w[0] must be the constant 1.
template <class Fr>
status check_witness(const basic_constraint_system<Fr>& cs, std::span<const std::type_identity_t<Fr>> w);

}  // namespace pp::r1cs

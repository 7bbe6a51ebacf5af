// Satisfaction check: does <A_i,w> * <B_i,w> = <C_i,w> hold for every constraint i?
// Runs in parallel but always reports the first (lowest-index) failing constraint.
#pragma once
#include <span>
#include <type_traits>

#include "core/status.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

// ok, or invalid_argument: the witness size/constant is wrong, or
// "constraint 17 is not satisfied: <A,w>*<B,w> != <C,w> (<A,w> = 0x.., <B,w> = 0x.., <C,w> = 0x..)".
template <class Fr>
status check_satisfied(const basic_constraint_system<Fr>& cs, std::span<const std::type_identity_t<Fr>> w);

}  // namespace pp::r1cs

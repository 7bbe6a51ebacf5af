// Satisfaction check: does <A_i,w> * <B_i,w> = <C_i,w> hold for every constraint i?
// Runs in parallel but always reports the first (lowest-index) failing constraint.
#pragma once
#include <span>

#include "core/status.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

// ok, or invalid_argument: the witness size/constant is wrong, or
// "constraint 17 is not satisfied: <A,w>*<B,w> != <C,w> (<A,w> = 0x.., <B,w> = 0x.., <C,w> = 0x..)".
status check_satisfied(const constraint_system& cs, std::span<const ff::fr> w);

}  // namespace pp::r1cs

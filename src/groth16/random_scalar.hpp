// Uniform Fr scalars from the operating system's CSPRNG (std::random_device): 512 random bits
// reduced mod r, so the bias is below 2^-256. For blinding factors (r, s) and insecure toxic waste;
// either curve's Fr (random_scalar.cpp instantiates both).
#pragma once
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"

namespace pp::groth16 {

template <class Fr = ff::fr>
[[nodiscard]] Fr random_scalar_csprng();

}  // namespace pp::groth16

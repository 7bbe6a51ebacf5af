// Uniform Fr scalars from the operating system's CSPRNG (std::random_device): 512 random bits
// reduced mod r, so the bias is below 2^-256. For blinding factors (r, s) and insecure toxic waste.
#pragma once
#include "ff/fr.hpp"

namespace pp::groth16 {

[[nodiscard]] ff::fr random_scalar_csprng();

}  // namespace pp::groth16

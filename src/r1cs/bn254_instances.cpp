// The r1cs layer for BN254's Fr (r1cs/instantiate.hpp).
#include "ff/bn254_fr.hpp"
#include "r1cs/instantiate.hpp"

namespace pp::r1cs {

PP_R1CS_INSTANTIATE(ff::bn254::fr);

}  // namespace pp::r1cs

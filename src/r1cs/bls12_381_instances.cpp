// The r1cs layer for BLS12-381's Fr (r1cs/instantiate.hpp). One file per curve, as poly does: each
// curve's SpMV is compiled and inlined as if it were the only one.
#include "ff/fr.hpp"
#include "r1cs/instantiate.hpp"

namespace pp::r1cs {

PP_R1CS_INSTANTIATE(ff::fr);

}  // namespace pp::r1cs

// The poly layer for BN254's Fr (poly/instantiate.hpp).
#include "ff/bn254_fr.hpp"
#include "poly/instantiate.hpp"

namespace pp::poly {

PP_POLY_INSTANTIATE(ff::bn254::fr);

}  // namespace pp::poly

// The poly layer for BLS12-381's Fr (poly/instantiate.hpp). One file per curve, as the pairing
// layer does: each curve's NTT is compiled and inlined as if it were the only one.
#include "ff/fr.hpp"
#include "poly/instantiate.hpp"

namespace pp::poly {

PP_POLY_INSTANTIATE(ff::fr);

}  // namespace pp::poly

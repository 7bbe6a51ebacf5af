// Pairing entry points: compositions of miller_loop.cpp and final_exponentiation.cpp.
#include "pairing/pairing.hpp"

namespace pp::pairing {

ff::fp12 pairing(const ec::g1_affine& p, const ec::g2_affine& q) {
  return final_exponentiation(miller_loop(p, q));
}

ff::fp12 multi_pairing(std::span<const pairing_term> terms) {
  return final_exponentiation(multi_miller_loop(terms));
}
ff::fp12 multi_pairing(std::span<const prepared_term> terms) {
  return final_exponentiation(multi_miller_loop(terms));
}

bool pairing_product_is_one(std::span<const pairing_term> terms) { return multi_pairing(terms).is_one(); }
bool pairing_product_is_one(std::span<const prepared_term> terms) { return multi_pairing(terms).is_one(); }

}  // namespace pp::pairing

// BLS12-381's Miller loop: ate_miller_loop instantiated on its family (pairing/miller_loop_impl.hpp).
#include "pairing/bls12_381_ate.hpp"
#include "pairing/miller_loop_impl.hpp"

namespace pp::pairing {

template struct ate_miller_loop<ec::bls12_381::family>;

}  // namespace pp::pairing

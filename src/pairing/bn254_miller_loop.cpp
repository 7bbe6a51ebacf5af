// BN254's Miller loop: ate_miller_loop instantiated on its family (pairing/miller_loop_impl.hpp).
#include "pairing/bn254_ate.hpp"
#include "pairing/miller_loop_impl.hpp"

namespace pp::pairing {

template struct ate_miller_loop<ec::bn254::family>;

}  // namespace pp::pairing

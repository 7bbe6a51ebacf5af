// A curve family: what the layers above the curves (MSM, NTT, Groth16, the pairing) template on.
// One struct per pairing-friendly curve names its scalar field Fr, base field Fp, extension tower
// (ff/fp2.hpp), G1 and G2 curves; ec/bls12_381_curves.hpp and ec/bn254_curves.hpp define them, and
// each curve struct names its family back (docs/design.md, "Curve families").
#pragma once
#include <concepts>

namespace pp::ec {

// How G2's twist E' maps into E(Fp12): M-type (x', y') -> (x'/w^2, y'/w^3) with b' = b xi, D-type
// (x', y') -> (x' w^2, y' w^3) with b' = b / xi. It decides where a Miller-loop line's coefficients
// land in Fp12 and the form of the untwist-Frobenius-twist endomorphism psi.
enum class twist_type { m, d };

template <class F>
concept curve_family = requires {
  typename F::fr;
  typename F::fp;
  typename F::tower;
  typename F::g1_curve;
  typename F::g2_curve;
  { F::name } -> std::convertible_to<const char*>;
} && std::same_as<typename F::g1_curve::family, F> && std::same_as<typename F::g2_curve::family, F> &&
    std::same_as<typename F::g1_curve::scalar_field, typename F::fr> &&
    std::same_as<typename F::g2_curve::scalar_field, typename F::fr>;

}  // namespace pp::ec

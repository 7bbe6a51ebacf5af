// The curve a file is for, as a value: what the format readers find at the edge (a .r1cs/.wtns
// prime, a zkey's q, snarkjs JSON's "curve") before anything is parsed into typed keys. visit_curve
// turns it into the family type once, so the code below is compiled per family and nothing branches
// on the curve per element (docs/design.md, "Curve families").
#pragma once
#include <string>
#include <string_view>
#include <type_traits>

#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"

namespace pp::ec {

enum class curve_id { bls12_381, bn254 };

// The family's id.
template <class Family>
inline constexpr curve_id curve_id_of =
    std::is_same_v<Family, bls12_381::family> ? curve_id::bls12_381 : curve_id::bn254;
static_assert(curve_id_of<bn254::family> == curve_id::bn254);

// The family whose scalar field is Fr: a circom .r1cs or .wtns names only r.
template <class Fr>
using family_of_fr = std::conditional_t<std::is_same_v<Fr, bn254::family::fr>, bn254::family, bls12_381::family>;
static_assert(std::is_same_v<family_of_fr<bls12_381::family::fr>, bls12_381::family>);

// "BLS12-381" or "BN254", for messages.
constexpr const char* curve_name(curve_id c) {
  return c == curve_id::bls12_381 ? bls12_381::family::name : bn254::family::name;
}

// snarkjs's name in JSON files and circom's -p option ("bls12381", "bn128").
constexpr std::string_view snarkjs_curve_name(curve_id c) { return c == curve_id::bls12_381 ? "bls12381" : "bn128"; }

// "BN254 (bn128)": the name in messages, with snarkjs's.
inline std::string curve_text(curve_id c) {
  return std::string(curve_name(c)) + " (" + std::string(snarkjs_curve_name(c)) + ")";
}

// f.template operator()<Family>() for the family of c; returns what f returns.
template <class F>
decltype(auto) visit_curve(curve_id c, F&& f) {
  if (c == curve_id::bn254) return f.template operator()<bn254::family>();
  return f.template operator()<bls12_381::family>();
}

}  // namespace pp::ec

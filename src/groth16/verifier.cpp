// verify: input checks, vk_x by a short MSM over IC, then one pairing product; both curve families.
#include "groth16/verifier.hpp"

#include <array>
#include <string>

#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "pairing/pairing.hpp"

namespace pp::groth16 {

namespace {

template <class Curve>
status check_point(const ec::affine<Curve>& p, const char* name) {
  if (!ec::is_on_curve(p)) return invalid_argument(std::string("proof point ") + name + " is not on the curve");
  if (!ec::is_in_subgroup(p)) {
    return invalid_argument(std::string("proof point ") + name + " is not in the prime-order subgroup");
  }
  return ok_status();
}

}  // namespace

template <class Family>
status verify_unchecked(const basic_verifying_key<Family>& vk, std::span<const typename Family::fr> public_inputs,
                        const basic_proof<Family>& pi) {
  if (vk.ic.empty()) return invalid_argument("verifying key has no IC points (expected n_public + 1 >= 1)");
  if (public_inputs.size() != vk.n_public()) {
    return invalid_argument("wrong number of public inputs: expected " + std::to_string(vk.n_public()) + ", got " +
                            std::to_string(public_inputs.size()));
  }
  // vk_x: a handful of points, so per-point wNAF beats setting up an MSM.
  auto vk_x = ec::to_jacobian(vk.ic[0]);
  for (std::size_t i = 0; i < public_inputs.size(); ++i) {
    if (public_inputs[i].is_zero() || ec::is_infinity(vk.ic[i + 1])) continue;
    vk_x = ec::add(vk_x, ec::scalar_mul_wnaf(ec::to_jacobian(vk.ic[i + 1]), public_inputs[i]));
  }
  const std::array<pairing::pairing_term_t<Family>, 4> terms = {{
      {pi.a, pi.b},
      {ec::neg(vk.alpha_g1), vk.beta_g2},
      {ec::neg(ec::to_affine(vk_x)), vk.gamma_g2},
      {ec::neg(pi.c), vk.delta_g2},
  }};
  if (!pairing::pairing_product_is_one(terms)) return invalid_argument("proof does not verify");
  return ok_status();
}

template <class Family>
status verify(const basic_verifying_key<Family>& vk, std::span<const typename Family::fr> public_inputs,
              const basic_proof<Family>& pi) {
  if (public_inputs.size() != vk.n_public()) {
    return invalid_argument("wrong number of public inputs: expected " + std::to_string(vk.n_public()) + ", got " +
                            std::to_string(public_inputs.size()));
  }
  if (status s = check_point(pi.a, "A"); !s.ok()) return s;
  if (status s = check_point(pi.b, "B"); !s.ok()) return s;
  if (status s = check_point(pi.c, "C"); !s.ok()) return s;
  return verify_unchecked(vk, public_inputs, pi);
}

#define PP_GROTH16_VERIFIER(Family)                                                                       \
  template status verify<Family>(const basic_verifying_key<Family>&, std::span<const Family::fr>,        \
                                 const basic_proof<Family>&);                                            \
  template status verify_unchecked<Family>(const basic_verifying_key<Family>&, std::span<const Family::fr>, \
                                           const basic_proof<Family>&)
PP_GROTH16_VERIFIER(ec::bls12_381::family);
PP_GROTH16_VERIFIER(ec::bn254::family);
#undef PP_GROTH16_VERIFIER

}  // namespace pp::groth16

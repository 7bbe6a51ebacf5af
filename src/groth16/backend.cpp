// The backend-independent pieces of the contract: random blinding, the key/circuit check every
// backend runs, and start-then-finish, for both curve families (not hot code: one unit holds both).
#include "groth16/backend.hpp"

#include <bit>
#include <optional>
#include <string>

#include "core/status_macros.hpp"
#include "groth16/qap.hpp"
#include "groth16/random_scalar.hpp"

namespace pp::groth16 {

namespace {

status check_size(const char* what, std::size_t got, std::size_t expected) {
  if (got == expected) return ok_status();
  return invalid_argument(std::string("proving key ") + what + " has " + std::to_string(got) + " points, expected " +
                          std::to_string(expected));
}

status check_density(const char* what, const std::optional<density_bitmap>& d, uint64_t num_vars) {
  if (d && d->size != num_vars) {
    return invalid_argument(std::string("proving key ") + what + " density covers " + std::to_string(d->size) +
                            " variables, expected " + std::to_string(num_vars));
  }
  return ok_status();
}

}  // namespace

template <class Family>
status check_key_matches_circuit(const basic_proving_key<Family>& pk,
                                 const r1cs::basic_constraint_system<typename Family::fr>& cs) {
  if (pk.n_vars != cs.num_variables()) {
    return invalid_argument("proving key is for " + std::to_string(pk.n_vars) + " variables, the circuit has " +
                            std::to_string(cs.num_variables()));
  }
  if (pk.n_public() != cs.num_public()) {
    return invalid_argument("proving key has " + std::to_string(pk.n_public()) + " public inputs, the circuit has " +
                            std::to_string(cs.num_public()));
  }
  if (!std::has_single_bit(pk.domain_size)) {
    return invalid_argument("proving key domain size " + std::to_string(pk.domain_size) + " is not a power of two");
  }
  if (pk.domain_size < qap_rows(cs)) {
    return invalid_argument("proving key domain has " + std::to_string(pk.domain_size) + " rows, the circuit needs " +
                            std::to_string(qap_rows(cs)) + " (constraints + public inputs + 1)");
  }
  const uint64_t nv = cs.num_variables();
  PP_RETURN_IF_ERROR(check_density("A", pk.a_density, nv));
  PP_RETURN_IF_ERROR(check_density("B", pk.b_density, nv));
  const uint64_t na = pk.a_density ? pk.a_density->count() : nv;
  const uint64_t nb = pk.b_density ? pk.b_density->count() : nv;
  PP_RETURN_IF_ERROR(check_size("A", pk.a.size(), na));
  PP_RETURN_IF_ERROR(check_size("B_G1", pk.b_g1.size(), nb));
  PP_RETURN_IF_ERROR(check_size("B_G2", pk.b_g2.size(), nb));
  PP_RETURN_IF_ERROR(check_size("L", pk.l.size(), cs.num_aux()));
  const uint64_t nh = pk.basis == h_basis::odd_coset_lagrange ? pk.domain_size : pk.domain_size - 1;
  PP_RETURN_IF_ERROR(check_size("H", pk.h.size(), nh));
  if (pk.vk.ic.size() != cs.num_public() + 1) {
    return invalid_argument("verifying key has " + std::to_string(pk.vk.ic.size()) + " IC points, expected " +
                            std::to_string(cs.num_public() + 1));
  }
  return ok_status();
}

template <class Family>
basic_blinding<Family> random_blinding() {
  using Fr = typename Family::fr;
  return {random_scalar_csprng<Fr>(), random_scalar_csprng<Fr>()};
}

template <class Family>
result<basic_prove_output<Family>> prove(basic_backend<Family>& be, const basic_prove_request<Family>& req) {
  PP_ASSIGN_OR_RETURN(pending_ptr p, be.start(req));
  return be.finish(std::move(p));
}

#define PP_GROTH16_BACKEND(Family)                                                                         \
  template status check_key_matches_circuit<Family>(const basic_proving_key<Family>&,                      \
                                                    const r1cs::basic_constraint_system<Family::fr>&);     \
  template basic_blinding<Family> random_blinding<Family>();                                               \
  template result<basic_prove_output<Family>> prove<Family>(basic_backend<Family>&,                        \
                                                            const basic_prove_request<Family>&)
PP_GROTH16_BACKEND(ec::bls12_381::family);
PP_GROTH16_BACKEND(ec::bn254::family);
#undef PP_GROTH16_BACKEND

}  // namespace pp::groth16

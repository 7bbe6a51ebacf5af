// check_prove_request, assemble and assemble_proof for both curve families (a few scalar
// multiplications and one pairing check per proof: one unit holds both).
#include "groth16/proof_assembly.hpp"

#include <chrono>
#include <string>

#include "core/status_macros.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/backend.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/satisfaction.hpp"
#include "r1cs/witness.hpp"

namespace pp::groth16 {

using clock = std::chrono::steady_clock;

template <class Family>
status check_prove_request(const basic_prove_request<Family>& req) {
  if (req.pk == nullptr || req.cs == nullptr) return invalid_argument("prove request needs a proving key and a circuit");
  const auto& cs = *req.cs;
  if (req.witness.size() != cs.num_variables()) {
    return invalid_argument("witness size mismatch: expected " + std::to_string(cs.num_variables()) + " values (1 + " +
                            std::to_string(cs.num_public()) + " public + " + std::to_string(cs.num_aux()) +
                            " aux), got " + std::to_string(req.witness.size()));
  }
  PP_RETURN_IF_ERROR(r1cs::check_witness<typename Family::fr>(cs, req.witness));
  return check_key_matches_circuit(*req.pk, cs);
}

template <class Family>
basic_proof<Family> assemble(const basic_verifying_key<Family>& vk, const basic_msm_sums<Family>& sums,
                             const basic_blinding<Family>& rs) {
  const auto& r = rs.r;
  const auto& s = rs.s;
  const auto delta1 = ec::to_jacobian(vk.delta_g1);
  const auto pi_a = ec::add(ec::add(sums.a, vk.alpha_g1), ec::scalar_mul_wnaf(delta1, r));
  const auto pi_b =
      ec::add(ec::add(sums.b2, vk.beta_g2), ec::scalar_mul_wnaf(ec::to_jacobian(vk.delta_g2), s));
  const auto b1 = ec::add(ec::add(sums.b1, vk.beta_g1), ec::scalar_mul_wnaf(delta1, s));
  auto pi_c = ec::add(sums.l, sums.h);
  pi_c = ec::add(pi_c, ec::scalar_mul_wnaf(pi_a, s));
  pi_c = ec::add(pi_c, ec::scalar_mul_wnaf(b1, r));
  pi_c = ec::add(pi_c, ec::neg(ec::scalar_mul_wnaf(delta1, r * s)));
  return basic_proof<Family>{ec::to_affine(pi_a), ec::to_affine(pi_b), ec::to_affine(pi_c)};
}

template <class Family>
result<basic_prove_output<Family>> assemble_proof(const basic_proving_key<Family>& pk,
                                                  const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                  std::span<const typename Family::fr> witness,
                                                  const basic_msm_sums<Family>& sums, const basic_blinding<Family>& rs,
                                                  const prove_options& options, prove_timings timings,
                                                  std::string_view backend_name) {
  const auto& vk = pk.vk;
  basic_prove_output<Family> out;
  out.timings = std::move(timings);

  const auto t0 = clock::now();
  out.pi = assemble(vk, sums, rs);
  out.timings.add("assembly", clock::now() - t0);

  if (options.self_verify) {
    const auto t1 = clock::now();
    const status v = verify_unchecked(vk, witness.subspan(1, cs.num_public()), out.pi);
    out.timings.add("self-verify", clock::now() - t1);
    if (!v.ok()) {
      // Name the cause when it is the witness (the usual one); otherwise key, circuit or prover are off.
      // A circuit read from a .zkey has A and B only (its C rows are empty): checking A w * B w = 0
      // would blame the first row with a non-zero product, so say what can be known instead.
      if (cs.c().nnz() == 0) {
        return internal_error("proof failed self-verification (" + v.message() +
                              "); the witness does not satisfy the circuit or belongs to another one, or the key "
                              "does not match it (the key holds no C matrix, so no failing constraint can be named: "
                              "`proofpipe prove --r1cs circuit.r1cs` names it)");
      }
      const status sat = r1cs::check_satisfied<typename Family::fr>(cs, witness);
      return internal_error("proof failed self-verification (" + v.message() + "); " +
                            (sat.ok() ? "the witness satisfies the circuit, so the key does not match the circuit "
                                        "or the " + std::string(backend_name) + " prover is wrong"
                                      : "the witness does not satisfy the circuit: " + sat.message()));
    }
  }
  return out;
}

#define PP_GROTH16_ASSEMBLY(Family)                                                                              \
  template status check_prove_request<Family>(const basic_prove_request<Family>&);                               \
  template basic_proof<Family> assemble<Family>(const basic_verifying_key<Family>&, const basic_msm_sums<Family>&, \
                                                const basic_blinding<Family>&);                                  \
  template result<basic_prove_output<Family>> assemble_proof<Family>(                                            \
      const basic_proving_key<Family>&, const r1cs::basic_constraint_system<Family::fr>&,                        \
      std::span<const Family::fr>, const basic_msm_sums<Family>&, const basic_blinding<Family>&,                 \
      const prove_options&, prove_timings, std::string_view)
PP_GROTH16_ASSEMBLY(ec::bls12_381::family);
PP_GROTH16_ASSEMBLY(ec::bn254::family);
#undef PP_GROTH16_ASSEMBLY

}  // namespace pp::groth16

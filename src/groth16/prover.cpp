// cpu_backend. Assembly (notes §4.5, bellman groth16/prover.rs):
//   pi_A = alpha + sum w_i A_i + r delta_1
//   pi_B = beta_2 + sum w_i B2_i + s delta_2,   B1 = beta_1 + sum w_i B1_i + s delta_1
//   pi_C = sum aux_i L_i + sum h_j H_j + s pi_A + r B1 - r s delta_1
// The MSM scalars are the witness values themselves (split MSM: witnesses are mostly 0 and 1) and
// the dense h scalars (Pippenger). Both curve families: the hot loops live in the msm, poly and r1cs
// layers (instantiated per curve there), so one unit holds both.
#include "groth16/prover.hpp"

#include <bit>
#include <chrono>
#include <string>
#include <vector>

#include "core/status_macros.hpp"
#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/proof_assembly.hpp"
#include "groth16/qap.hpp"
#include "groth16/verifier.hpp"
#include "msm/glv_bls12_381.hpp"
#include "msm/glv_bn254.hpp"
#include "msm/pippenger.hpp"
#include "msm/split_msm.hpp"
#include "r1cs/satisfaction.hpp"
#include "r1cs/witness.hpp"

namespace pp::groth16 {

namespace {

using clock = std::chrono::steady_clock;

template <class Family>
struct cpu_pending final : pending {
  const basic_proving_key<Family>* pk = nullptr;
  const r1cs::basic_constraint_system<typename Family::fr>* cs = nullptr;
  std::span<const typename Family::fr> witness;
  basic_blinding<Family> rs;
  prove_options options;
  prove_timings timings;
  basic_msm_sums<Family> sums;
};

// Runs f and records its wall time under name.
template <class F>
auto timed(prove_timings& t, const char* name, F&& f) {
  const auto t0 = clock::now();
  if constexpr (std::is_void_v<decltype(f())>) {
    f();
    t.add(name, clock::now() - t0);
  } else {
    auto r = f();
    t.add(name, clock::now() - t0);
    return r;
  }
}

// The witness values of the variables whose bit is set (the scalars of a filtered query).
template <class Fr>
std::vector<Fr> select_scalars(std::span<const Fr> w, const density_bitmap& bits) {
  std::vector<Fr> out;
  out.reserve(bits.count());
  for (uint64_t i = 0; i < w.size(); ++i) {
    if (bits.get(i)) out.push_back(w[i]);
  }
  return out;
}

}  // namespace

template <class Family>
uint64_t basic_cpu_backend<Family>::host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const {
  // The split MSM gathers the points whose scalar is not 0 (and their canonical scalars): for B_G2,
  // up to one G2 point + 32 B per variable, and where G2 has the GLV split (BN254, msm/glv.hpp) the
  // halves (32 B) and beta x (one Fp2) as well. Measured (tests/engine/engine_rss_test.cpp), that
  // gather is the largest scratch of start() once the variables outnumber the domain rows. Per
  // domain row, the H MSM holds a, b, c (96 B), the canonical scalars (32 B) and the GLV x
  // coordinates (48 B, msm/glv.hpp): 176 B, inside the 8 x 32 B counted below.
  using G2 = typename Family::g2_curve;
  constexpr uint64_t g2_glv = msm::glv<G2>::available ? 32 + sizeof(typename G2::field) : 0;
  const uint64_t msm_gather = num_variables * (sizeof(ec::affine<G2>) + 32 + g2_glv);
  const uint64_t raw = 32 * (num_variables + 8 * domain_size) + msm_gather;
  return (raw + 4095) / 4096 * 4096;
}

template <class Family>
result<pending_ptr> basic_cpu_backend<Family>::start(const request& req) {
  using Fr = typename Family::fr;
  using G1 = typename Family::g1_curve;
  using G2 = typename Family::g2_curve;
  PP_RETURN_IF_ERROR(check_prove_request<Family>(req));
  const basic_proving_key<Family>& pk = *req.pk;
  const r1cs::basic_constraint_system<Fr>& cs = *req.cs;
  const std::span<const Fr> w = req.witness;

  auto p = std::make_unique<cpu_pending<Family>>();
  p->pk = &pk;
  p->cs = &cs;
  p->witness = w;
  p->rs = req.rs ? *req.rs : random_blinding<Family>();
  p->options = req.options;
  prove_timings& t = p->timings;

  if (req.options.check_satisfied) {
    PP_RETURN_IF_ERROR(timed(t, "satisfaction check", [&] { return r1cs::check_satisfied<Fr>(cs, w); }));
  }
  PP_ASSIGN_OR_RETURN(const basic_qap_domain<Fr> d, timed(t, "domain", [&] {
                        return basic_qap_domain<Fr>::create(std::countr_zero(pk.domain_size), root_family_for(pk.basis));
                      }));
  const uint64_t n = d.size();
  std::vector<Fr> a(n), b(n), c(n);
  const bool need_c = pk.basis == h_basis::monomial;  // snarkjs uses c = a∘b (its zkey has no C)
  PP_RETURN_IF_ERROR(timed(t, "spmv", [&] {
    return evaluate_qap<Fr>(d, cs, w, a, b, need_c ? std::span<Fr>(c) : std::span<Fr>());
  }));
  PP_ASSIGN_OR_RETURN(const std::size_t h_count, timed(t, "ntt (h)", [&] { return compute_h<Fr>(d, pk.basis, a, b, c); }));

  const std::span<const Fr> h_scalars(a.data(), h_count);
  const std::span<const Fr> aux = w.subspan(1 + cs.num_public());
  std::vector<Fr> a_sel, b_sel;
  if (pk.a_density) a_sel = select_scalars(w, *pk.a_density);
  if (pk.b_density) b_sel = select_scalars(w, *pk.b_density);
  const std::span<const Fr> a_scalars = pk.a_density ? std::span<const Fr>(a_sel) : w;
  const std::span<const Fr> b_scalars = pk.b_density ? std::span<const Fr>(b_sel) : w;

  p->sums.h = timed(t, "msm H", [&] { return msm::pippenger<G1>(pk.h, h_scalars); });
  p->sums.l = timed(t, "msm L", [&] { return msm::split_msm<G1>(pk.l, aux); });
  p->sums.a = timed(t, "msm A", [&] { return msm::split_msm<G1>(pk.a, a_scalars); });
  p->sums.b1 = timed(t, "msm B_G1", [&] { return msm::split_msm<G1>(pk.b_g1, b_scalars); });
  p->sums.b2 = timed(t, "msm B_G2", [&] { return msm::split_msm<G2>(pk.b_g2, b_scalars); });
  return pending_ptr(std::move(p));
}

template <class Family>
auto basic_cpu_backend<Family>::finish(pending_ptr base) -> result<output> {
  auto* p = dynamic_cast<cpu_pending<Family>*>(base.get());
  if (p == nullptr) return invalid_argument("cpu_backend::finish: the pending proof was not started by this backend");
  return assemble_proof<Family>(*p->pk, *p->cs, p->witness, p->sums, p->rs, p->options, std::move(p->timings),
                                name());
}

template class basic_cpu_backend<ec::bls12_381::family>;
template class basic_cpu_backend<ec::bn254::family>;

}  // namespace pp::groth16

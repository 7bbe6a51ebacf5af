// prove_from_evaluations: pad a, b, c to the domain, h = (a b - c) / Z by poly::compute_quotient
// (through compute_h, monomial basis), then H by Pippenger and L, A, B_G1, B_G2 by the split MSM
// (witness values are mostly 0 and 1), assembly and the self-check (proof_assembly.hpp).
#include "groth16/evaluation_prover.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/status_macros.hpp"
#include "ff/limbs.hpp"
#include "groth16/qap.hpp"
#include "groth16/verifier.hpp"
#include "msm/pippenger.hpp"
#include "msm/split_msm.hpp"

namespace pp::groth16 {

using ff::fr;

namespace {

bool bit(const density_bits& d, uint64_t i) { return (d.words[i >> 6] >> (i & 63)) & 1; }

// Set bits among the first d.bits (bits past the end of the last word are ignored).
uint64_t popcount(const density_bits& d) {
  uint64_t n = 0;
  for (uint64_t w = 0; w < d.bits / 64; ++w) n += __builtin_popcountll(d.words[w]);
  if (d.bits % 64 != 0) n += __builtin_popcountll(d.words[d.bits / 64] & ((uint64_t{1} << (d.bits % 64)) - 1));
  return n;
}

status check_bits(const char* name, const density_bits& d, uint64_t expected_bits) {
  if (d.bits != expected_bits) {
    return invalid_argument(std::string(name) + " covers " + std::to_string(d.bits) + " variables, expected " +
                            std::to_string(expected_bits));
  }
  if (d.words.size() < (d.bits + 63) / 64) {
    return invalid_argument(std::string(name) + " has " + std::to_string(d.words.size()) + " words for " +
                            std::to_string(d.bits) + " bits");
  }
  return ok_status();
}

status check_count(const char* what, uint64_t got, uint64_t expected) {
  if (got == expected) return ok_status();
  return invalid_argument(std::string(what) + ": expected " + std::to_string(expected) + ", got " +
                          std::to_string(got));
}

// Appends the values whose bit is set.
void select(std::span<const fr> values, const density_bits& d, std::vector<fr>& out) {
  for (uint64_t i = 0; i < values.size(); ++i) {
    if (bit(d, i)) out.push_back(values[i]);
  }
}

}  // namespace

status check_evaluation_request(const evaluation_request& req) {
  if (req.pk == nullptr) return invalid_argument("prove_from_evaluations needs a proving key");
  const proving_key& pk = *req.pk;
  if (pk.basis != h_basis::monomial) return invalid_argument("prove_from_evaluations needs a monomial-basis key");
  PP_RETURN_IF_ERROR(check_count("inputs (the constant 1 and the public inputs, = |vk.ic|)", req.inputs.size(),
                                 pk.vk.ic.size()));
  PP_RETURN_IF_ERROR(check_count("aux (= |l|)", req.aux.size(), pk.l.size()));
  if (req.inputs.empty() || req.inputs[0] != fr::one()) return invalid_argument("inputs[0] must be the constant 1");
  PP_RETURN_IF_ERROR(check_bits("a_aux density", req.a_aux, req.aux.size()));
  PP_RETURN_IF_ERROR(check_bits("b_inputs density", req.b_inputs, req.inputs.size()));
  PP_RETURN_IF_ERROR(check_bits("b_aux density", req.b_aux, req.aux.size()));
  PP_RETURN_IF_ERROR(
      check_count("A query points (inputs + popcount(a_aux))", pk.a.size(), req.inputs.size() + popcount(req.a_aux)));
  const uint64_t nb = popcount(req.b_inputs) + popcount(req.b_aux);
  PP_RETURN_IF_ERROR(check_count("B_G1 query points (popcount(b_inputs) + popcount(b_aux))", pk.b_g1.size(), nb));
  PP_RETURN_IF_ERROR(check_count("B_G2 query points (popcount(b_inputs) + popcount(b_aux))", pk.b_g2.size(), nb));
  PP_RETURN_IF_ERROR(check_count("b evaluations (= |a|)", req.b.size(), req.a.size()));
  PP_RETURN_IF_ERROR(check_count("c evaluations (= |a|)", req.c.size(), req.a.size()));
  if (req.a.size() > pk.domain_size) {
    return invalid_argument("a, b, c have " + std::to_string(req.a.size()) + " rows, more than the key's domain of " +
                            std::to_string(pk.domain_size));
  }
  if (req.a.size() < req.inputs.size()) {
    return invalid_argument("a, b, c have " + std::to_string(req.a.size()) + " rows, fewer than the " +
                            std::to_string(req.inputs.size()) + " input rows");
  }
  return ok_status();
}

uint64_t first_unreduced(std::span<const fr> v, fr* copy_to) {
  // Values per task: 1 MiB of scalars.
  constexpr uint64_t grain = uint64_t{1} << 15;
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, v.size(), grain), uint64_t(v.size()),
      [&](const tbb::blocked_range<uint64_t>& r, uint64_t first) {
        const fr* block = v.data() + r.begin();
        if (copy_to != nullptr) {
          std::memcpy(copy_to + r.begin(), block, (r.end() - r.begin()) * sizeof(fr));
          block = copy_to + r.begin();
        }
        for (uint64_t i = r.begin(); i < r.end() && i < first; ++i) {
          if (ff::limbs::cmp<fr::n64>(block[i - r.begin()].l, fr::params::modulus) >= 0) return i;
        }
        return first;
      },
      [](uint64_t x, uint64_t y) { return std::min(x, y); });
}

status unreduced_scalar(std::string_view name, uint64_t i) {
  return invalid_argument(std::string(name) + "[" + std::to_string(i) +
                          "] is not a reduced scalar (Montgomery form, below r)");
}

result<proof> prove_from_evaluations(const evaluation_request& req) {
  PP_RETURN_IF_ERROR(check_evaluation_request(req));
  const proving_key& pk = *req.pk;
  int log_n = 0;
  while ((uint64_t{1} << log_n) < pk.domain_size) ++log_n;
  PP_ASSIGN_OR_RETURN(const qap_domain d, qap_domain::create(log_n, root_family_for(h_basis::monomial)));
  const uint64_t n = d.size();
  std::vector<fr> a(n, fr::zero()), b(n, fr::zero()), c(n, fr::zero());
  std::copy(req.a.begin(), req.a.end(), a.begin());
  std::copy(req.b.begin(), req.b.end(), b.begin());
  std::copy(req.c.begin(), req.c.end(), c.begin());
  PP_ASSIGN_OR_RETURN(const std::size_t h_count, compute_h(d, h_basis::monomial, a, b, c));
  b = {};
  c = {};

  std::vector<fr> a_scalars(req.inputs.begin(), req.inputs.end());
  a_scalars.reserve(pk.a.size());
  select(req.aux, req.a_aux, a_scalars);
  std::vector<fr> b_scalars;
  b_scalars.reserve(pk.b_g1.size());
  select(req.inputs, req.b_inputs, b_scalars);
  select(req.aux, req.b_aux, b_scalars);

  msm_sums sums;
  sums.h = msm::pippenger<ec::g1_curve>(pk.h, std::span<const fr>(a.data(), h_count));
  sums.l = msm::split_msm<ec::g1_curve>(pk.l, req.aux);
  sums.a = msm::split_msm<ec::g1_curve>(pk.a, a_scalars);
  sums.b1 = msm::split_msm<ec::g1_curve>(pk.b_g1, b_scalars);
  sums.b2 = msm::split_msm<ec::g2_curve>(pk.b_g2, b_scalars);
  return finish_from_sums(req, sums);
}

result<proof> finish_from_sums(const evaluation_request& req, const msm_sums& sums) {
  const proof pi = assemble(req.pk->vk, sums, req.rs);
  const status v = verify_unchecked(req.pk->vk, req.inputs.subspan(1), pi);
  if (!v.ok()) {
    return internal_error("proof failed verification against the key's verifying key (" + v.message() +
                          "): a, b, c are not A w, B w, C w of this witness, or the densities or key do not match it");
  }
  return pi;
}

}  // namespace pp::groth16

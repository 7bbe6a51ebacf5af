// setup_insecure: evaluate the QAP polynomials at tau through the Lagrange basis, form the key's
// scalars in Fr (in parallel), then hand every scalar vector to a fixed_base_multiplier for the G1
// and G2 generators. Formulas follow snarkjs zkey_new.js and bellman groth16/generator.rs (see the header).
// Both curve families (setup runs once per key: one unit holds both).
#include "groth16/setup_insecure.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <span>
#include <vector>

#include "core/status_macros.hpp"
#include "groth16/qap.hpp"
#include "groth16/qap_columns.hpp"
#include "groth16/random_scalar.hpp"
#include "poly/powers.hpp"
#include "ff/limbs.hpp"
#include "r1cs/density.hpp"

namespace pp::groth16 {

template <class Fr>
basic_toxic_waste_insecure<Fr> random_toxic_waste_insecure() {
  return {random_scalar_csprng<Fr>(), random_scalar_csprng<Fr>(), random_scalar_csprng<Fr>(),
          random_scalar_csprng<Fr>(), random_scalar_csprng<Fr>()};
}

namespace {

// Uniform in [0, r) from a splitmix64 stream, by rejection over Fr's bit length: the same stream and
// draws as r1cs::random_fr for BLS12-381 (the top limb shifted to 63 bits), so seeded keys stay
// the same.
template <class Fr>
Fr seeded_scalar(uint64_t& state) {
  constexpr int top_bits = Fr::bits - 64 * (Fr::n64 - 1);
  const auto next = [&state] {
    uint64_t z = state += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  uint64_t v[Fr::n64];
  do {
    for (int i = 0; i < Fr::n64; ++i) v[i] = next();
    v[Fr::n64 - 1] >>= 64 - top_bits;
  } while (ff::limbs::cmp<Fr::n64>(v, Fr::params::modulus) >= 0);
  return Fr::from_canonical_unchecked(v);
}

}  // namespace

template <class Fr>
basic_toxic_waste_insecure<Fr> toxic_waste_from_seed_insecure(uint64_t seed) {
  uint64_t state = seed;
  basic_toxic_waste_insecure<Fr> tw;
  tw.tau = seeded_scalar<Fr>(state);
  tw.alpha = seeded_scalar<Fr>(state);
  tw.beta = seeded_scalar<Fr>(state);
  tw.gamma = seeded_scalar<Fr>(state);
  tw.delta = seeded_scalar<Fr>(state);
  return tw;
}

namespace {

template <class F>
void parallel_for_each_index(std::size_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
  });
}

template <class Fr>
void release(std::vector<Fr>& v) {
  std::vector<Fr>().swap(v);
}

// The entries of v whose bit is set, in order: counts per block of words, offsets, then a parallel copy.
template <class Fr>
std::vector<Fr> select(const std::vector<Fr>& v, const density_bitmap& bits) {
  constexpr std::size_t block_words = 4096;
  const std::size_t blocks = (bits.words.size() + block_words - 1) / block_words;
  std::vector<uint64_t> offset(blocks + 1, 0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t hi = std::min(bits.words.size(), (b + 1) * block_words);
    uint64_t c = 0;
    for (std::size_t w = b * block_words; w < hi; ++w) c += __builtin_popcountll(bits.words[w]);
    offset[b + 1] = c;
  });
  for (std::size_t b = 0; b < blocks; ++b) offset[b + 1] += offset[b];
  std::vector<Fr> out(offset[blocks]);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    uint64_t o = offset[b];
    const uint64_t hi = std::min<uint64_t>(v.size(), (b + 1) * block_words * 64);
    for (uint64_t i = b * block_words * 64; i < hi; ++i) {
      if (bits.get(i)) out[o++] = v[i];
    }
  });
  return out;
}

density_bitmap to_density(const r1cs::bitmap& b) { return density_bitmap{b.words(), b.size()}; }

// out = [k_i] G for the generator G of the curve's group.
template <class Family>
status g1_points(basic_fixed_base_multiplier<Family>& m, std::span<const typename Family::fr> k,
                 std::vector<ec::affine<typename Family::g1_curve>>& out) {
  out.resize(k.size());
  return m.mul_g1(ec::generator<typename Family::g1_curve>(), k, out);
}
template <class Family>
status g2_points(basic_fixed_base_multiplier<Family>& m, std::span<const typename Family::fr> k,
                 std::vector<ec::affine<typename Family::g2_curve>>& out) {
  out.resize(k.size());
  return m.mul_g2(ec::generator<typename Family::g2_curve>(), k, out);
}

}  // namespace

template <class Family>
result<basic_proving_key<Family>> setup_insecure(const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                 h_basis basis,
                                                 const basic_toxic_waste_insecure<typename Family::fr>& tw) {
  basic_host_fixed_base_multiplier<Family> host;
  return setup_insecure<Family>(cs, basis, tw, host);
}

template <class Family>
result<basic_proving_key<Family>> setup_insecure(const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                 h_basis basis,
                                                 const basic_toxic_waste_insecure<typename Family::fr>& tw_in,
                                                 basic_fixed_base_multiplier<Family>& points) {
  using fr = typename Family::fr;
  basic_toxic_waste_insecure<fr> tw = tw_in;
  if (basis == h_basis::odd_coset_lagrange) tw.gamma = fr::one();  // snarkjs never changes gamma
  if (tw.alpha.is_zero() || tw.beta.is_zero() || tw.gamma.is_zero() || tw.delta.is_zero()) {
    return invalid_argument("setup_insecure: alpha, beta, gamma and delta must be non-zero");
  }
  PP_ASSIGN_OR_RETURN(const basic_qap_domain<fr> d, basic_qap_domain<fr>::for_circuit(cs, root_family_for(basis)));
  const uint64_t n = d.size();
  const uint64_t m = cs.num_constraints();
  const uint64_t num_vars = cs.num_variables();
  const uint64_t num_public = cs.num_public();

  const fr z2 = tw.tau.pow(2 * n) - fr::one();

  // A_i(tau), B_i(tau), C_i(tau) through the Lagrange basis at tau.
  std::vector<fr> at, bt, ct;
  {
    PP_ASSIGN_OR_RETURN(std::vector<fr> lag, d.lagrange_at(tw.tau));
    if (basis == h_basis::odd_coset_lagrange && z2.is_zero()) {
      return invalid_argument("setup_insecure: tau lies in the 2n-domain (tau^2n = 1)");
    }
    at = column_evaluations<fr>(cs.a(), lag, num_vars);
    bt = column_evaluations<fr>(cs.b(), lag, num_vars);
    ct = column_evaluations<fr>(cs.c(), lag, num_vars);
    for (uint64_t i = 0; i <= num_public; ++i) at[i] += lag[m + i];  // input rows A[m + i][i] = 1
  }

  // In place of C_i: beta A_i + alpha B_i + C_i, over gamma for inputs (IC) and over delta for aux (L).
  const fr gamma_inv = tw.gamma.inverse();
  const fr delta_inv = tw.delta.inverse();
  parallel_for_each_index(num_vars, [&](std::size_t i) {
    ct[i] = (tw.beta * at[i] + tw.alpha * bt[i] + ct[i]) * (i <= num_public ? gamma_inv : delta_inv);
  });

  basic_proving_key<Family> pk;
  pk.basis = basis;
  pk.n_vars = static_cast<uint32_t>(num_vars);
  pk.domain_size = static_cast<uint32_t>(n);

  {
    const fr k1[3] = {tw.alpha, tw.beta, tw.delta};
    const fr k2[3] = {tw.beta, tw.gamma, tw.delta};
    std::vector<ec::affine<typename Family::g1_curve>> p1;
    std::vector<ec::affine<typename Family::g2_curve>> p2;
    PP_RETURN_IF_ERROR(g1_points<Family>(points, k1, p1));
    PP_RETURN_IF_ERROR(g2_points<Family>(points, k2, p2));
    pk.vk.alpha_g1 = p1[0];
    pk.vk.beta_g1 = p1[1];
    pk.vk.delta_g1 = p1[2];
    pk.vk.beta_g2 = p2[0];
    pk.vk.gamma_g2 = p2[1];
    pk.vk.delta_g2 = p2[2];
  }
  const std::span<const fr> icl(ct);
  PP_RETURN_IF_ERROR(g1_points<Family>(points, icl.first(num_public + 1), pk.vk.ic));
  PP_RETURN_IF_ERROR(g1_points<Family>(points, icl.subspan(num_public + 1), pk.l));
  release(ct);

  if (basis == h_basis::monomial) {
    // bellman drops the points at infinity from A and B: keep the variables with a non-zero column.
    // Every input has its input row in A, so A's input bits are always set.
    const r1cs::column_density cd = r1cs::compute_density<fr>(cs);
    density_bitmap ad = to_density(cd.a);
    for (uint64_t i = 0; i <= num_public; ++i) ad.set(i);
    density_bitmap bd = to_density(cd.b);
    at = select(at, ad);
    bt = select(bt, bd);
    pk.a_density = std::move(ad);
    pk.b_density = std::move(bd);
  }
  PP_RETURN_IF_ERROR(g1_points<Family>(points, at, pk.a));
  release(at);
  PP_RETURN_IF_ERROR(g1_points<Family>(points, bt, pk.b_g1));
  PP_RETURN_IF_ERROR(g2_points<Family>(points, bt, pk.b_g2));
  release(bt);

  std::vector<fr> h;
  if (basis == h_basis::odd_coset_lagrange) {
    // L^(2n)_(2j+1)(tau) = (tau^2n - 1) / 2n * x_j / (tau - x_j), x_j = omega_2n^(2j+1) = omega_2n omega_n^j.
    const fr omega_2n = ff::root_of_unity<fr>(d.log_size() + 1, d.family());
    h.resize(n);
    fill_scaled_lagrange_terms<fr>(h, tw.tau, omega_2n, d.omega(), z2 * fr::from_uint(2 * n).inverse() * delta_inv);
  } else {
    // tau^i Z(tau) / delta for i < n - 1 (deg h <= n - 2).
    h.resize(n - 1);
    poly::fill_powers<fr>(h, tw.tau, (tw.tau.pow(n) - fr::one()) * delta_inv);
  }
  PP_RETURN_IF_ERROR(g1_points<Family>(points, h, pk.h));
  return pk;
}

template <class Family>
uint64_t setup_insecure_peak_bytes(const r1cs::basic_constraint_system<typename Family::fr>& cs) {
  using g1 = ec::affine<typename Family::g1_curve>;
  using g2 = ec::affine<typename Family::g2_curve>;
  using fr = typename Family::fr;
  const uint64_t n = std::bit_ceil(cs.num_constraints() + cs.num_public() + 1);
  return cs.num_variables() * (3 * sizeof(g1) + sizeof(g2) + 4 * sizeof(fr)) + n * (sizeof(g1) + 2 * sizeof(fr));
}

#define PP_GROTH16_SETUP(Family)                                                                                 \
  template basic_toxic_waste_insecure<Family::fr> random_toxic_waste_insecure<Family::fr>();                     \
  template basic_toxic_waste_insecure<Family::fr> toxic_waste_from_seed_insecure<Family::fr>(uint64_t);          \
  template result<basic_proving_key<Family>> setup_insecure<Family>(                                             \
      const r1cs::basic_constraint_system<Family::fr>&, h_basis, const basic_toxic_waste_insecure<Family::fr>&,  \
      basic_fixed_base_multiplier<Family>&);                                                                     \
  template result<basic_proving_key<Family>> setup_insecure<Family>(                                             \
      const r1cs::basic_constraint_system<Family::fr>&, h_basis, const basic_toxic_waste_insecure<Family::fr>&); \
  template uint64_t setup_insecure_peak_bytes<Family>(const r1cs::basic_constraint_system<Family::fr>&)
PP_GROTH16_SETUP(ec::bls12_381::family);
PP_GROTH16_SETUP(ec::bn254::family);
#undef PP_GROTH16_SETUP

}  // namespace pp::groth16

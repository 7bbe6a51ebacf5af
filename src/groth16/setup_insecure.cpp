// setup_insecure: evaluate the QAP polynomials at tau through the Lagrange basis, form the key's
// scalars in Fr, then turn every scalar vector into points with fixed-base tables of the G1 and G2
// generators. Formulas follow snarkjs zkey_new.js and bellman groth16/generator.rs (see the header).
#include "groth16/setup_insecure.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <string>
#include <vector>

#include "core/status_macros.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/qap.hpp"
#include "groth16/random_scalar.hpp"
#include "r1cs/density.hpp"
#include "r1cs/synthetic.hpp"

namespace pp::groth16 {

using ff::fr;

toxic_waste_insecure random_toxic_waste_insecure() {
  return {random_scalar_csprng(), random_scalar_csprng(), random_scalar_csprng(), random_scalar_csprng(),
          random_scalar_csprng()};
}

toxic_waste_insecure toxic_waste_from_seed_insecure(uint64_t seed) {
  uint64_t state = seed;
  toxic_waste_insecure tw;
  tw.tau = r1cs::random_fr(state);
  tw.alpha = r1cs::random_fr(state);
  tw.beta = r1cs::random_fr(state);
  tw.gamma = r1cs::random_fr(state);
  tw.delta = r1cs::random_fr(state);
  return tw;
}

namespace {

// M_i(tau) = sum_c M[c][i] L_c(tau) for every variable i.
std::vector<fr> column_sums(const r1cs::csr_matrix& m, std::span<const fr> lagrange, uint64_t num_vars) {
  std::vector<fr> out(num_vars, fr::zero());
  for (std::size_t row = 0; row < m.rows(); ++row) {
    const auto cols = m.row_cols(row);
    const auto coeffs = m.row_coeffs(row);
    for (std::size_t k = 0; k < cols.size(); ++k) out[cols[k]] += coeffs[k] * lagrange[row];
  }
  return out;
}

template <class F>
void parallel_for_each_index(std::size_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
  });
}

// The entries of v whose bit is set, in order.
std::vector<fr> select(const std::vector<fr>& v, const density_bitmap& bits) {
  std::vector<fr> out;
  out.reserve(bits.count());
  for (uint64_t i = 0; i < v.size(); ++i) {
    if (bits.get(i)) out.push_back(v[i]);
  }
  return out;
}

density_bitmap to_density(const r1cs::bitmap& b) {
  density_bitmap d = density_bitmap::all_clear(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.test(i)) d.set(i);
  }
  return d;
}

}  // namespace

result<proving_key> setup_insecure(const r1cs::constraint_system& cs, h_basis basis,
                                   const toxic_waste_insecure& tw_in) {
  toxic_waste_insecure tw = tw_in;
  if (basis == h_basis::odd_coset_lagrange) tw.gamma = fr::one();  // snarkjs never changes gamma
  if (tw.alpha.is_zero() || tw.beta.is_zero() || tw.gamma.is_zero() || tw.delta.is_zero()) {
    return invalid_argument("setup_insecure: alpha, beta, gamma and delta must be non-zero");
  }
  PP_ASSIGN_OR_RETURN(const qap_domain d, qap_domain::for_circuit(cs, root_family_for(basis)));
  PP_ASSIGN_OR_RETURN(const std::vector<fr> lag, d.lagrange_at(tw.tau));
  const uint64_t n = d.size();
  const uint64_t m = cs.num_constraints();
  const uint64_t num_vars = cs.num_variables();
  const uint64_t num_public = cs.num_public();

  std::vector<fr> at = column_sums(cs.a(), lag, num_vars);
  const std::vector<fr> bt = column_sums(cs.b(), lag, num_vars);
  const std::vector<fr> ct = column_sums(cs.c(), lag, num_vars);
  for (uint64_t i = 0; i <= num_public; ++i) at[i] += lag[m + i];  // input rows A[m + i][i] = 1

  const fr gamma_inv = tw.gamma.inverse();
  const fr delta_inv = tw.delta.inverse();
  // beta A_i + alpha B_i + C_i, over gamma for inputs and over delta for aux.
  std::vector<fr> ic(num_public + 1), l(num_vars - num_public - 1);
  parallel_for_each_index(num_vars, [&](std::size_t i) {
    const fr v = tw.beta * at[i] + tw.alpha * bt[i] + ct[i];
    if (i <= num_public) {
      ic[i] = v * gamma_inv;
    } else {
      l[i - num_public - 1] = v * delta_inv;
    }
  });

  std::vector<fr> h;
  if (basis == h_basis::odd_coset_lagrange) {
    // L^(2n)_(2j+1)(tau) = (tau^2n - 1) / 2n * x_j / (tau - x_j), x_j = omega_2n^(2j+1) = omega_2n omega_n^j.
    const fr omega_2n = ff::root_of_unity(d.log_size() + 1, d.family());
    const fr z2 = tw.tau.pow(2 * n) - fr::one();
    if (z2.is_zero()) return invalid_argument("setup_insecure: tau lies in the 2n-domain (tau^2n = 1)");
    std::vector<fr> x(n), den(n), scratch(n);
    fr xj = omega_2n;
    for (uint64_t j = 0; j < n; ++j, xj *= d.omega()) {
      x[j] = xj;
      den[j] = tw.tau - xj;
    }
    ff::batch_inverse(den.data(), scratch.data(), static_cast<int64_t>(n));
    const fr scale = z2 * fr::from_uint(2 * n).inverse() * delta_inv;
    h.resize(n);
    parallel_for_each_index(n, [&](std::size_t j) { h[j] = scale * x[j] * den[j]; });
  } else {
    // tau^i Z(tau) / delta for i < n - 1 (deg h <= n - 2).
    const fr zt = (tw.tau.pow(n) - fr::one()) * delta_inv;
    h.resize(n - 1);
    fr p = zt;
    for (uint64_t i = 0; i + 1 < n; ++i, p *= tw.tau) h[i] = p;
  }

  proving_key pk;
  pk.basis = basis;
  pk.n_vars = static_cast<uint32_t>(num_vars);
  pk.domain_size = static_cast<uint32_t>(n);

  const fixed_base_table<ec::g1_curve> g1(ec::generator<ec::g1_curve>());
  const fixed_base_table<ec::g2_curve> g2(ec::generator<ec::g2_curve>());
  auto g1_point = [&](const fr& k) { return ec::to_affine(g1.mul(k)); };
  auto g2_point = [&](const fr& k) { return ec::to_affine(g2.mul(k)); };
  pk.vk.alpha_g1 = g1_point(tw.alpha);
  pk.vk.beta_g1 = g1_point(tw.beta);
  pk.vk.beta_g2 = g2_point(tw.beta);
  pk.vk.gamma_g2 = g2_point(tw.gamma);
  pk.vk.delta_g1 = g1_point(tw.delta);
  pk.vk.delta_g2 = g2_point(tw.delta);
  pk.vk.ic = g1.mul_batch(ic);

  if (basis == h_basis::monomial) {
    // bellman drops the points at infinity from A and B: keep the variables with a non-zero column.
    // Every input has its input row in A, so A's input bits are always set.
    const r1cs::column_density cd = r1cs::compute_density(cs);
    density_bitmap ad = to_density(cd.a);
    for (uint64_t i = 0; i <= num_public; ++i) ad.set(i);
    density_bitmap bd = to_density(cd.b);
    const std::vector<fr> bsel = select(bt, bd);
    pk.a = g1.mul_batch(select(at, ad));
    pk.b_g1 = g1.mul_batch(bsel);
    pk.b_g2 = g2.mul_batch(bsel);
    pk.a_density = std::move(ad);
    pk.b_density = std::move(bd);
  } else {
    pk.a = g1.mul_batch(at);
    pk.b_g1 = g1.mul_batch(bt);
    pk.b_g2 = g2.mul_batch(bt);
  }
  pk.l = g1.mul_batch(l);
  pk.h = g1.mul_batch(h);
  return pk;
}

}  // namespace pp::groth16

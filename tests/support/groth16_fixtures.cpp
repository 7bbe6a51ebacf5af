#include "support/groth16_fixtures.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "groth16/qap.hpp"
#include "support/status_matchers.hpp"

namespace pp::test {

std::unique_ptr<keyed_circuit> make_keyed_circuit(const r1cs::synthetic_params& sp, groth16::h_basis basis,
                                                  uint64_t toxic_seed) {
  auto c = r1cs::make_synthetic(sp);
  EXPECT_THAT(c, IsOk());
  if (!c.ok()) return nullptr;
  auto out = std::make_unique<keyed_circuit>();
  out->circuit = std::move(c).value();
  auto pk = groth16::setup_insecure(out->circuit.cs, basis, groth16::toxic_waste_from_seed_insecure(toxic_seed));
  EXPECT_THAT(pk, IsOk());
  if (!pk.ok()) return nullptr;
  out->pk = std::move(pk).value();
  return out;
}

std::vector<uint64_t> density_words(const groth16::density_bitmap& d, uint64_t from, uint64_t count) {
  std::vector<uint64_t> w((count + 63) / 64, 0);
  for (uint64_t i = 0; i < count; ++i) {
    if (d.get(from + i)) w[i / 64] |= uint64_t{1} << (i % 64);
  }
  return w;
}

groth16::evaluation_request evaluations::request(const groth16::proving_key& pk, const r1cs::constraint_system& cs,
                                                 std::span<const ff::fr> w, const groth16::blinding& rs) const {
  const uint64_t n_inp = 1 + cs.num_public(), n_aux = cs.num_aux();
  groth16::evaluation_request r;
  r.pk = &pk;
  r.a = a;
  r.b = b;
  r.c = c;
  r.inputs = w.subspan(0, n_inp);
  r.aux = w.subspan(n_inp);
  r.a_aux = {a_aux, n_aux};
  r.b_inputs = {b_inputs, n_inp};
  r.b_aux = {b_aux, n_aux};
  r.rs = rs;
  return r;
}

evaluations make_evaluations(const r1cs::constraint_system& cs, std::span<const ff::fr> w,
                             const groth16::proving_key& pk) {
  evaluations e;
  auto d = groth16::qap_domain::for_circuit(cs, groth16::root_family_for(groth16::h_basis::monomial));
  EXPECT_THAT(d, IsOk());
  if (!d.ok()) return e;
  std::vector<ff::fr> a(d->size()), b(d->size()), c(d->size());
  EXPECT_THAT(groth16::evaluate_qap(*d, cs, w, a, b, c), IsOk());
  const auto rows = static_cast<std::ptrdiff_t>(groth16::qap_rows(cs));
  e.a.assign(a.begin(), a.begin() + rows);
  e.b.assign(b.begin(), b.begin() + rows);
  e.c.assign(c.begin(), c.begin() + rows);
  const uint64_t n_inp = 1 + cs.num_public(), n_aux = cs.num_aux();
  e.a_aux = density_words(*pk.a_density, n_inp, n_aux);
  e.b_inputs = density_words(*pk.b_density, 0, n_inp);
  e.b_aux = density_words(*pk.b_density, n_inp, n_aux);
  return e;
}

}  // namespace pp::test

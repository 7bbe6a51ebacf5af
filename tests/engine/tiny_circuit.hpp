// The engine tests' circuit: a tiny synthetic one (64 constraints, 2 public inputs) with an insecure
// setup, made once per test binary, and its key as a key_source; a result's check with its curve's
// verifier.
#pragma once
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine::testing {

struct fixture_circuit {
  std::shared_ptr<const groth16::proving_key> pk;
  std::shared_ptr<const r1cs::constraint_system> cs;
  std::vector<ff::fr> witness;
};

inline const fixture_circuit& tiny_circuit() {
  static const fixture_circuit c = [] {
    r1cs::synthetic_params p;
    p.num_constraints = 64;
    p.num_public = 2;
    p.num_aux = 96;
    p.seed = 7;
    auto sc = r1cs::make_synthetic(p);
    EXPECT_THAT(sc, IsOk());
    auto pk = groth16::setup_insecure(sc->cs, groth16::h_basis::odd_coset_lagrange,
                                      groth16::toxic_waste_from_seed_insecure(3));
    EXPECT_THAT(pk, IsOk());
    return fixture_circuit{std::make_shared<const groth16::proving_key>(std::move(pk).value()),
                           std::make_shared<const r1cs::constraint_system>(sc->cs), sc->w};
  }();
  return c;
}

inline key_source tiny_key() { return memory_key_source{tiny_circuit().pk, tiny_circuit().cs}; }

// A partition's proof checked with Family's verifier against vk; a result of the other curve fails.
template <class Family>
status verify_result(const groth16::basic_verifying_key<Family>& vk, const partition_result& p) {
  const auto* proved = p.as<Family>();
  if (!proved) return failed_precondition("the result is " + std::string(ec::curve_name(p.curve())) + "'s");
  return groth16::verify(vk, proved->public_inputs, proved->proof);
}

}  // namespace pp::engine::testing

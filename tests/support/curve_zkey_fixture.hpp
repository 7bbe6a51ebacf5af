// A random circuit's insecure key over either curve, written as a .zkey, with its verifying key and
// its witness as .wtns bytes: what the daemon's and the cluster's two-curve tests serve and submit.
// A template over the curve family, so header-only; the test links pp::formats and pp::groth16.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "formats/circom_wtns.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::test {

template <class Family>
struct curve_zkey {
  std::filesystem::path zkey;
  groth16::basic_verifying_key<Family> vk;
  std::string wtns;
};

// A fresh random circuit (20 constraints, 2 public inputs; the run's seed ^ salt) keyed in snarkjs's
// basis and written to `path`; empty members after a failed expectation.
template <class Family>
curve_zkey<Family> make_curve_zkey(const std::filesystem::path& path, uint64_t salt) {
  using fr = typename Family::fr;
  uint64_t state = test_seed() ^ salt;
  const auto tc = groth16::testing::random_circuit<fr>(state, 20, 2);
  auto pk = groth16::setup_insecure<Family>(tc.cs, groth16::h_basis::odd_coset_lagrange,
                                            groth16::toxic_waste_from_seed_insecure<fr>(state));
  EXPECT_THAT(pk, IsOk());
  curve_zkey<Family> k;
  if (!pk.ok()) return k;
  formats::basic_snarkjs_zkey<Family> z;
  z.pk = std::move(pk).value();
  z.coefficients = formats::zkey_coefficients(tc.cs);
  k.zkey = path;
  EXPECT_THAT(formats::write_snarkjs_zkey_file(z, k.zkey), IsOk());
  k.vk = z.pk.vk;
  auto bytes = formats::write_circom_wtns(std::span<const fr>(tc.w));
  EXPECT_THAT(bytes, IsOk());
  if (bytes.ok()) k.wtns.assign(bytes->begin(), bytes->end());
  return k;
}

}  // namespace pp::test

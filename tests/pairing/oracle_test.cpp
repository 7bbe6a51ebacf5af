// e([k1] G1, [k2] G2) against @noble/curves 1.9.7 (tools/oracle/pairing_oracle.mjs), coefficient by
// coefficient on canonical integers, for fresh random k1, k2, written once over the curve family and
// instantiated for BLS12-381 and BN254 (noble's bls12_381.pairing and bn254.pairing). Skips when
// node or node_modules is missing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "pairing/pairing.hpp"
#include "pairing_test_util.hpp"
#include "support/files.hpp"

namespace {

using namespace pp::pairing::testing;

std::string hex(const uint64_t* v, int n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (int i = 64 * n - 4; i >= 0; i -= 4) {
    const int d = (v[i / 64] >> (i % 64)) & 0xf;
    if (s.empty() && d == 0) continue;
    s.push_back(digits[d]);
  }
  return s.empty() ? "0" : s;
}

template <class F>
std::string hex(const F& a) {
  uint64_t c[F::n64];
  a.to_canonical(c);
  return hex(c, F::n64);
}

// The 12 canonical coefficients in the oracle's order (c0 before c1 at every level).
template <class Fp12>
std::vector<std::string> coefficients(const Fp12& f) {
  std::vector<std::string> out;
  for (const auto* c6 : {&f.c0, &f.c1}) {
    for (const auto* c2 : {&c6->c0, &c6->c1, &c6->c2}) {
      for (const auto* c : {&c2->c0, &c2->c1}) out.push_back(hex(*c));
    }
  }
  return out;
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  if (pclose(pipe) != 0) out.clear();
  return out;
}

// The oracle's name for a family.
template <class Family>
const char* oracle_curve();
template <>
const char* oracle_curve<pp::ec::bls12_381::family>() { return "bls12_381"; }
template <>
const char* oracle_curve<pp::ec::bn254::family>() { return "bn254"; }

template <class Family>
class PairingOracle : public ::testing::Test {};
using families = ::testing::Types<pp::ec::bls12_381::family, pp::ec::bn254::family>;
TYPED_TEST_SUITE(PairingOracle, families, family_name_generator);

TYPED_TEST(PairingOracle, MatchesNobleCurves) {
  using Family = TypeParam;
  using fr = typename Family::fr;
  const std::filesystem::path dir = pp::test::source_dir() / "tools" / "oracle";
  if (!std::filesystem::exists(dir / "node_modules" / "@noble" / "curves")) {
    GTEST_SKIP() << "tools/oracle/node_modules missing (npm ci in tools/oracle)";
  }
  if (std::system("command -v node >/dev/null 2>&1") != 0) GTEST_SKIP() << "node not found";

  test_rng r;
  SCOPED_TRACE(r.trace());
  std::vector<std::pair<fr, fr>> ks = {{fr::one(), fr::one()}};
  for (int i = 0; i < 4; ++i) ks.emplace_back(random_fr<fr>(r.gen), random_fr<fr>(r.gen));
  std::string cmd = "cd '" + dir.string() + "' && node pairing_oracle.mjs --curve " + oracle_curve<Family>();
  for (const auto& [k1, k2] : ks) cmd.append(" ").append(hex(k1)).append(" ").append(hex(k2));
  const std::string out = run(cmd);
  ASSERT_FALSE(out.empty()) << "oracle failed: " << cmd;

  std::istringstream lines(out);
  for (const auto& [k1, k2] : ks) {
    SCOPED_TRACE("k1 = 0x" + hex(k1) + ", k2 = 0x" + hex(k2));
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    std::istringstream words(line);
    const auto ours = coefficients(pp::pairing::pairing(g1_mul<Family>(k1), g2_mul<Family>(k2)));
    for (size_t i = 0; i < ours.size(); ++i) {
      std::string theirs;
      ASSERT_TRUE(words >> theirs);
      EXPECT_EQ(ours[i], theirs) << "coefficient " << i;
    }
  }
}

}  // namespace

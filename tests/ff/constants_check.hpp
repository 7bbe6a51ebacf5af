// Recomputes with GMP the Montgomery constants every generated params struct carries
// (scripts/gen_constants.py): shared by constants_test.cpp (BLS12-381) and bn254_constants_test.cpp,
// and a run of the generator with --check on the checked-in header.
#pragma once
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmp_oracle.hpp"
#include "support/files.hpp"

namespace pp::ff::testing {

template <class P>
void check_common(const mpz_class& m) {
  const int n = P::n64;
  const mpz_class R = mpz_class(1) << (64 * n);
  EXPECT_EQ(limbs_to_mpz(P::modulus, n), m);
  EXPECT_EQ(P::bits, int(mpz_sizeinbase(m.get_mpz_t(), 2)));
  EXPECT_EQ(limbs_to_mpz(P::r_mod, n), mod(R, m));
  EXPECT_EQ(limbs_to_mpz(P::r2_mod, n), mod(R * R, m));
  EXPECT_EQ(limbs_to_mpz(P::r3_mod, n), mod(R * R * R, m));
  // inv = -m^-1 mod 2^64 and mod 2^32.
  for (int w : {64, 32}) {
    const mpz_class two_w = mpz_class(1) << w;
    mpz_class mi;
    ASSERT_NE(mpz_invert(mi.get_mpz_t(), m.get_mpz_t(), two_w.get_mpz_t()), 0);
    const mpz_class want = mod(-mi, two_w);
    const mpz_class got = w == 64 ? limbs_to_mpz(&P::inv, 1) : mpz_class(static_cast<unsigned long>(P::inv32));
    EXPECT_EQ(got, want) << "inv" << w;
  }
  EXPECT_EQ(limbs_to_mpz(P::m_minus_2, n), m - 2);
  EXPECT_EQ(limbs_to_mpz(P::m_minus_1_half, n), (m - 1) / 2);
}

// Runs scripts/<script> <args> --check src/ff/<header>: the header is exactly what the generator prints.
inline void check_generated_header(const std::string& script, const std::string& args, const std::string& header) {
  const std::string dir = pp::test::source_dir().string();
  if (!std::filesystem::exists(dir + "/scripts/" + script)) {
    GTEST_SKIP() << "scripts/" << script << " is not under " << dir << " (ctest sets PP_SOURCE_DIR)";
  }
  if (std::system("python3 --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not found";
  const std::string cmd = "python3 '" + dir + "/scripts/" + script + "' " + args + " --check '" + dir +
                          "/src/ff/" + header + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace pp::ff::testing

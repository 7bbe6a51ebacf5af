// `proofpipe selfcheck`: checks the arithmetic on fresh random values against algebraic identities
// (field inverses and square roots, group order, encodings, pairing bilinearity) and times each step.
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "cli/commands.hpp"
#include "core/timing_table.hpp"
#include "ec/ec.hpp"
#include "ec/encoding.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "pairing/pairing.hpp"

namespace pp::cli {
namespace {

template <class F>
F random_element(std::mt19937_64& rng) {
  uint64_t v[F::n64];
  for (auto& x : v) x = rng();
  v[F::n64 - 1] >>= 64 - ((F::bits - 1) - 64 * (F::n64 - 1));  // one bit shorter than the modulus
  return F::from_canonical_unchecked(v);
}

struct checker {
  int failures = 0;
  bool quiet = false;
  void expect(bool ok, const char* what) {
    if (!ok) {
      ++failures;
      std::fprintf(stderr, "selfcheck FAILED: %s\n", what);
    } else if (!quiet) {
      std::printf("  ok  %s\n", what);
    }
  }
};

int run_selfcheck(bool quiet, int rounds) {
  std::random_device rd;
  const uint64_t seed = (uint64_t{rd()} << 32) | rd();
  std::mt19937_64 rng(seed);
  if (!quiet) std::printf("proofpipe selfcheck (seed %llu, %d rounds)\n", static_cast<unsigned long long>(seed), rounds);
  checker c{0, quiet};
  timing_table table;
  {
    auto t = table.time("fields");
    bool inv = true, sq = true, dist = true;
    for (int i = 0; i < rounds * 100; ++i) {
      const auto a = random_element<ff::fp>(rng), b = random_element<ff::fp>(rng);
      inv &= a.is_zero() || (a * a.inverse()).is_one();
      ff::fp s;
      sq &= ff::sqrt(a.sqr(), s) && (s == a || s == -a);
      dist &= (a + b).sqr() == a.sqr() + (a * b).dbl() + b.sqr();
      const auto x = random_element<ff::fr>(rng);
      inv &= x.is_zero() || (x * x.inverse()).is_one();
      const ff::fp2 z{a, b};
      inv &= z.is_zero() || (z * z.inverse()).is_one();
    }
    c.expect(inv, "Fp, Fr, Fp2: a * a^-1 = 1");
    c.expect(sq, "Fp: sqrt(a^2) = +-a");
    c.expect(dist, "Fp: (a + b)^2 = a^2 + 2ab + b^2");
    c.expect(ff::root_of_unity(32).pow(uint64_t{1} << 31) == -ff::fr::one(), "Fr: 2^32-th root of unity is primitive");
  }
  const auto g1 = ec::generator<ec::g1_curve>();
  const auto g2 = ec::generator<ec::g2_curve>();
  {
    auto t = table.time("groups");
    bool sum = true, subgroup = true, codec = true;
    for (int i = 0; i < rounds; ++i) {
      const auto k = random_element<ff::fr>(rng), m = random_element<ff::fr>(rng);
      const auto p = ec::to_affine(ec::scalar_mul(g1, k));
      const auto q = ec::to_affine(ec::scalar_mul(g2, k));
      sum &= ec::to_affine(ec::add(ec::scalar_mul(g1, k), ec::scalar_mul(g1, m))) ==
             ec::to_affine(ec::scalar_mul(g1, k + m));
      sum &= ec::to_affine(ec::add(ec::scalar_mul(g2, k), ec::scalar_mul(g2, m))) ==
             ec::to_affine(ec::scalar_mul(g2, k + m));
      subgroup &= ec::is_in_subgroup(p) && ec::is_in_subgroup(q);
      const auto dec1 = ec::decode_compressed<ec::g1_curve>(ec::encode_compressed(p));
      const auto dec2 = ec::decode_compressed<ec::g2_curve>(ec::encode_compressed(q));
      codec &= dec1.ok() && *dec1 == p && dec2.ok() && *dec2 == q;
    }
    c.expect(sum, "G1, G2: kG + mG = (k + m)G");
    c.expect(subgroup, "G1, G2: kG lies in the prime-order subgroup");
    c.expect(codec, "G1, G2: compressed encodings round-trip");
  }
  {
    auto t = table.time("pairing");
    const auto a = random_element<ff::fr>(rng), b = random_element<ff::fr>(rng);
    const auto e = pairing::pairing(g1, g2);
    c.expect(!e.is_one(), "e(G1, G2) != 1");
    const auto lhs = pairing::pairing(ec::to_affine(ec::scalar_mul(g1, a)), ec::to_affine(ec::scalar_mul(g2, b)));
    uint64_t ab[4];
    (a * b).to_canonical(ab);
    c.expect(lhs == e.pow(ab, 4), "e(aP, bQ) = e(P, Q)^(ab)");
  }
  if (!quiet) std::printf("\n%s", table.render().c_str());
  if (c.failures) {
    std::fprintf(stderr, "selfcheck: %d check(s) failed (seed %llu)\n", c.failures,
                 static_cast<unsigned long long>(seed));
    return 1;
  }
  if (!quiet) std::printf("selfcheck passed\n");
  return 0;
}

}  // namespace

void add_selfcheck_command(CLI::App& app, cli_state& state) {
  auto* cmd = app.add_subcommand("selfcheck", "check the field, curve and pairing arithmetic on random values, with timings");
  auto rounds = std::make_shared<int>(8);
  cmd->add_option("--rounds", *rounds, "random rounds per check")->check(CLI::Range(1, 10000));
  cmd->callback([&state, rounds] { state.exit_code = run_selfcheck(state.quiet, *rounds); });
}

}  // namespace pp::cli

// BN254's eight-lane IFMA Fp (ff/bn254_fp_x8_ifma.hpp) against GMP: each lane's integer after mul,
// dot2, add, sub, reduce_below, shl, equal and the load/store transposes, on fresh random inputs up to each
// operation's bound and on edges (0, 1, p - 1, p, bounds - 1, values at 52-bit limb boundaries).
// Skipped where the CPU lacks AVX-512 IFMA; compiled on x86-64 only.
#if defined(__x86_64__)

// g++ 12 flags the AVX-512 intrinsics' own _mm512_undefined operands (GCC bug 105593, fixed in 13).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "ff/bn254_fp_x8_ifma.hpp"

#include <gtest/gtest.h>

#include <array>
#include <functional>

#include "ff/bn254_fp.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff::bn254::ifma {
namespace {

using namespace pp::ff::testing;
using lanes = std::array<mpz_class, 8>;
using words = std::array<std::array<uint64_t, 5>, 8>;  // lane i, limb j

#define PP_TEST_IFMA [[gnu::target("avx512f,avx512ifma"), gnu::noinline]]

// Lane integers <-> 52-bit limbs (v < 2^260; the top limb keeps any excess).
words split(const lanes& v) {
  words w{};
  for (int i = 0; i < 8; ++i) {
    mpz_class rest = v[i];
    for (int j = 0; j < 5; ++j) {
      const mpz_class limb = j < 4 ? mpz_class(rest & mpz_class(mask52)) : rest;
      w[i][j] = limb.get_ui();
      rest >>= 52;
    }
  }
  return w;
}
lanes join(const words& w) {
  lanes v;
  for (int i = 0; i < 8; ++i) {
    v[i] = 0;
    for (int j = 4; j >= 0; --j) v[i] = (v[i] << 52) + mpz_class(static_cast<unsigned long>(w[i][j]));
  }
  return v;
}
bool normalized(const words& w) {
  for (const auto& lane : w) {
    for (int j = 0; j < 4; ++j) {
      if (lane[j] > mask52) return false;
    }
  }
  return true;
}

PP_TEST_IFMA fp_x8 to_x8(const words& w) {
  fp_x8 r;
  for (int j = 0; j < 5; ++j) {
    r.l[j] = _mm512_set_epi64(w[7][j], w[6][j], w[5][j], w[4][j], w[3][j], w[2][j], w[1][j], w[0][j]);
  }
  return r;
}
PP_TEST_IFMA words from_x8(const fp_x8& a) {
  words w;
  for (int j = 0; j < 5; ++j) {
    alignas(64) uint64_t t[8];
    _mm512_store_si512(t, a.l[j]);
    for (int i = 0; i < 8; ++i) w[i][j] = t[i];
  }
  return w;
}

enum class op { mul, dot2, add, sub_p, sub_4p, reduce_p, reduce_2p, shl2, shl4 };

PP_TEST_IFMA words run(op o, const words& a, const words& b) {
  const fp_x8 x = to_x8(a), y = to_x8(b);
  switch (o) {
    case op::mul: return from_x8(mul(x, y));
    case op::dot2: return from_x8(dot2(x, y, y, x));  // 2 a b, through both product rows
    case op::add: return from_x8(add(x, y));
    case op::sub_p: return from_x8(sub(x, y, p1));
    case op::sub_4p: return from_x8(sub(x, y, p4));
    case op::reduce_p: return from_x8(reduce_below(x, p1));
    case op::reduce_2p: return from_x8(reduce_below(x, p2));
    case op::shl2: return from_x8(shl<2>(x));
    case op::shl4: return from_x8(shl<4>(x));
  }
  return {};
}
PP_TEST_IFMA unsigned run_equal(const words& a, const words& b) { return equal(to_x8(a), to_x8(b)); }
PP_TEST_IFMA void run_load_store(const uint64_t (&in)[8][4], uint64_t (&out)[8][4], __mmask8 lanes_mask) {
  const uint64_t* src[8];
  uint64_t* dst[8];
  for (int i = 0; i < 8; ++i) {
    src[i] = in[i];
    dst[i] = out[i];
  }
  store(load(src), dst, lanes_mask);
}

class fp_x8_ifma : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cpu_has_avx512_ifma()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  }
  const mpz_class p = modulus<fp>();
  const mpz_class two260 = mpz_class(1) << 260;

  // Edges below bound: 0, 1, 2, p - 1, p, p + 1, bound - 1, and 2^(52k) - 1, 2^(52k) for k = 1..4.
  std::vector<mpz_class> edges(const mpz_class& bound) const {
    std::vector<mpz_class> e = {0, 1, 2, p - 1, p, p + 1, bound - 1};
    for (int k = 1; k <= 4; ++k) {
      e.push_back((mpz_class(1) << (52 * k)) - 1);
      e.push_back(mpz_class(1) << (52 * k));
    }
    std::vector<mpz_class> in;
    for (const auto& v : e) {
      if (v < bound) in.push_back(v);
    }
    return in;
  }
  // Eight random lanes below bound, a quarter of them edges.
  lanes draw(std::mt19937_64& rng, const mpz_class& bound) const {
    const auto e = edges(bound);
    lanes v;
    for (int i = 0; i < 8; ++i) v[i] = rng() % 4 == 0 ? e[rng() % e.size()] : random_below(rng, bound);
    return v;
  }

  // Runs o on lanes below bound_a, bound_b (edges first, then random) and checks each lane by want.
  void check(op o, const mpz_class& bound_a, const mpz_class& bound_b,
             const std::function<void(const mpz_class&, const mpz_class&, const mpz_class&)>& want) {
    PP_SEEDED_RNG(rng);
    const int edge_rounds = static_cast<int>(edges(bound_a).size() * edges(bound_b).size());
    for (int round = -edge_rounds; round < 4000; ++round) {
      lanes a, b;
      if (round < 0) {  // every pair of edges: a's edge by round / |edges b|, b's cycled
        const auto ea = edges(bound_a), eb = edges(bound_b);
        const int r = round + edge_rounds;
        for (int i = 0; i < 8; ++i) {
          a[i] = ea[static_cast<std::size_t>(r) / eb.size()];
          b[i] = eb[(static_cast<std::size_t>(r) + i) % eb.size()];
        }
      } else {
        a = draw(rng, bound_a);
        b = draw(rng, bound_b);
      }
      const words out = run(o, split(a), split(b));
      ASSERT_TRUE(normalized(out));
      const lanes got = join(out);
      for (int i = 0; i < 8; ++i) {
        SCOPED_TRACE("a = " + hex(a[i]) + ", b = " + hex(b[i]));
        want(a[i], b[i], got[i]);
        if (HasFatalFailure()) return;
      }
    }
  }
};

// a * b / 2^260 mod p, below 2p, wherever a * b < 2^260 p: the bounds the batch additions use.
TEST_F(fp_x8_ifma, MulMatchesGmpWithinBounds) {
  mpz_class r_inv;
  mpz_invert(r_inv.get_mpz_t(), two260.get_mpz_t(), p.get_mpz_t());
  const auto want = [&](const mpz_class& a, const mpz_class& b, const mpz_class& got) {
    ASSERT_LT(got, 2 * p);
    ASSERT_EQ(mod(got, p), mod(a * b * r_inv, p));
  };
  check(op::mul, 32 * p, 2 * p, want);  // a chain product times a shifted denominator
  check(op::mul, 2 * p, 8 * p, want);   // lambda times a shifted difference
  check(op::mul, 6 * p, 2 * p, want);   // a doubling's numerator times an inverse
}

// a * b + b * a at dot2's largest bounds (each product below 2^259 p).
TEST_F(fp_x8_ifma, Dot2MatchesGmpWithinBounds) {
  mpz_class r_inv;
  mpz_invert(r_inv.get_mpz_t(), two260.get_mpz_t(), p.get_mpz_t());
  const auto want = [&](const mpz_class& a, const mpz_class& b, const mpz_class& got) {
    ASSERT_LT(got, 2 * p);
    ASSERT_EQ(mod(got, p), mod(2 * a * b * r_inv, p));
  };
  check(op::dot2, 16 * p, 2 * p, want);  // a shifted difference times a difference: the norm
  check(op::dot2, 2 * p, 8 * p, want);   // lambda times a shifted difference
  check(op::dot2, 6 * p, 2 * p, want);   // a doubling's numerator times an inverse
}

TEST_F(fp_x8_ifma, AddSubReduceShiftAreExact) {
  check(op::add, 2 * p, 2 * p, [](const mpz_class& a, const mpz_class& b, const mpz_class& got) {
    ASSERT_EQ(got, a + b);
  });
  check(op::sub_p, 4 * p, p + 1, [&](const mpz_class& a, const mpz_class& b, const mpz_class& got) {
    ASSERT_EQ(got, a + p - b);
  });
  check(op::sub_4p, 2 * p, 4 * p + 1, [&](const mpz_class& a, const mpz_class& b, const mpz_class& got) {
    ASSERT_EQ(got, a + 4 * p - b);
  });
  check(op::reduce_p, 2 * p, 2, [&](const mpz_class& a, const mpz_class&, const mpz_class& got) {
    ASSERT_EQ(got, a >= p ? a - p : a);
  });
  check(op::reduce_2p, 4 * p, 2, [&](const mpz_class& a, const mpz_class&, const mpz_class& got) {
    ASSERT_EQ(got, a >= 2 * p ? a - 2 * p : a);
  });
  check(op::shl2, 8 * p, 2, [](const mpz_class& a, const mpz_class&, const mpz_class& got) {
    ASSERT_EQ(got, a << 2);
  });
  check(op::shl4, mpz_class(1) << 256, 2, [](const mpz_class& a, const mpz_class&, const mpz_class& got) {
    ASSERT_EQ(got, a << 4);
  });
}

TEST_F(fp_x8_ifma, EqualComparesEveryLimb) {
  PP_SEEDED_RNG(rng);
  for (int round = 0; round < 2000; ++round) {
    const lanes a = draw(rng, p);
    lanes b = a;
    for (int i = 0; i < 8; ++i) {
      if (rng() % 2) b[i] = (a[i] ^ (mpz_class(1) << static_cast<unsigned>(rng() % 254))) % p;
    }
    const unsigned got = run_equal(split(a), split(b));
    for (int i = 0; i < 8; ++i) ASSERT_EQ((got >> i) & 1, a[i] == b[i] ? 1u : 0u) << hex(a[i]) << " " << hex(b[i]);
  }
}

// load then store is the identity on whole 256-bit values, lane by lane, and store writes only the
// lanes asked for.
TEST_F(fp_x8_ifma, LoadStoreTranspose) {
  PP_SEEDED_RNG(rng);
  for (int round = 0; round < 2000; ++round) {
    uint64_t in[8][4], out[8][4];
    for (auto& lane : in) {
      for (auto& w : lane) w = rng() % 8 == 0 ? ~uint64_t{0} : rng();
    }
    for (auto& lane : out) {
      for (auto& w : lane) w = 0x5a5a5a5a5a5a5a5a;
    }
    const auto lanes_mask = static_cast<__mmask8>(round == 0 ? 0xff : rng());
    run_load_store(in, out, lanes_mask);
    for (int i = 0; i < 8; ++i) {
      for (int w = 0; w < 4; ++w) {
        ASSERT_EQ(out[i][w], (lanes_mask >> i) & 1 ? in[i][w] : 0x5a5a5a5a5a5a5a5a) << "lane " << i << " word " << w;
      }
    }
  }
}

TEST_F(fp_x8_ifma, ConstantsMatchGmp) {
  EXPECT_EQ(join(split({p, 2 * p, 4 * p, 0, 0, 0, 0, 0}))[2], 4 * p);
  const auto limbs_value = [](const limbs52& v) { return join(words{v, {}, {}, {}, {}, {}, {}, {}})[0]; };
  EXPECT_EQ(limbs_value(p1), p);
  EXPECT_EQ(limbs_value(p2), 2 * p);
  EXPECT_EQ(limbs_value(p4), 4 * p);
  EXPECT_EQ(limbs_value(p8), 8 * p);
  EXPECT_EQ(mod(mpz_class(static_cast<unsigned long>(pinv52)) * p + 1, mpz_class(1) << 52), 0);
}

}  // namespace
}  // namespace pp::ff::bn254::ifma

#endif  // __x86_64__

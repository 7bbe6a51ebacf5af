// Helpers shared by the GPU tests (seeds: support/test_seed.hpp): random field elements (uniform
// and carry-heavy limb patterns), edge values, a host parallel_for, and limb-by-limb comparison.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {

// f(begin, end) over [0, n) split across the host's cores.
template <class F>
void parallel_for(int64_t n, F&& f) {
  const int64_t threads = std::max<int64_t>(1, std::min<int64_t>(std::thread::hardware_concurrency(), 64));
  const int64_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) {
    const int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b >= e) break;
    pool.emplace_back([&f, b, e] { f(b, e); });
  }
  for (auto& th : pool) th.join();
}

// A uniformly random element (in Montgomery form any integer < modulus is one), or with
// probability 1/4 one whose 32-bit limbs are each 0, 1, 2^32 - 2, 2^32 - 1 or random: long carry
// and borrow runs through the PTX chains.
template <class F>
F random_element(std::mt19937_64& rng) {
  using P = typename F::params;
  constexpr int n = F::n64;
  const uint64_t top = P::modulus[n - 1];
  const int top_bits = 64 - __builtin_clzll(top);
  const uint64_t top_mask = top_bits == 64 ? ~0ull : (1ull << top_bits) - 1;
  for (;;) {
    uint64_t v[n];
    if (rng() % 4 != 0) {
      for (int i = 0; i < n; ++i) v[i] = rng();
    } else {
      static constexpr uint32_t patterns[4] = {0u, 1u, 0xfffffffeu, 0xffffffffu};
      for (int i = 0; i < n; ++i) {
        uint64_t w = 0;
        for (int h = 0; h < 2; ++h) {
          const uint64_t r = rng();
          const uint32_t limb = (r % 5 == 4) ? uint32_t(r >> 32) : patterns[r % 5];
          w |= uint64_t(limb) << (32 * h);
        }
        v[i] = w;
      }
    }
    v[n - 1] &= top_mask;
    if (ff::limbs::cmp<n>(v, P::modulus) < 0) return F::from_montgomery(v);
  }
}

template <>
inline ff::fp2 random_element<ff::fp2>(std::mt19937_64& rng) {
  return ff::fp2{random_element<ff::fp>(rng), random_element<ff::fp>(rng)};
}

// Edge values: 0, 1, -1, 2, raw limbs 1, p - 1, p - 2, (p - 1)/2, 2^32 - 1, 2^64, 2^(64(n-1)).
template <class F>
std::vector<F> edge_elements() {
  using P = typename F::params;
  constexpr int n = F::n64;
  std::vector<F> e = {F::zero(), F::one(), -F::one(), F::from_uint(2)};
  auto raw = [&](auto fill) {
    uint64_t v[n] = {};
    fill(v);
    e.push_back(F::from_montgomery(v));
  };
  raw([](uint64_t* v) { v[0] = 1; });
  raw([](uint64_t* v) { for (int i = 0; i < n; ++i) v[i] = P::modulus[i]; v[0] -= 1; });
  raw([](uint64_t* v) { for (int i = 0; i < n; ++i) v[i] = P::modulus[i]; v[0] -= 2; });
  raw([](uint64_t* v) { for (int i = 0; i < n; ++i) v[i] = P::m_minus_1_half[i]; });
  raw([](uint64_t* v) { v[0] = 0xffffffffull; });
  raw([](uint64_t* v) { v[1] = 1; });
  raw([](uint64_t* v) { v[n - 1] = 1; });
  return e;
}

template <>
inline std::vector<ff::fp2> edge_elements<ff::fp2>() {
  const auto b = edge_elements<ff::fp>();
  std::vector<ff::fp2> e;
  for (size_t i = 0; i < b.size(); ++i) {
    e.push_back(ff::fp2{b[i], ff::fp::zero()});
    e.push_back(ff::fp2{ff::fp::zero(), b[i]});
    e.push_back(ff::fp2{b[i], b[(i + 3) % b.size()]});
  }
  return e;
}

// Counts elements whose bytes differ; prints the first few with both values' limbs.
template <class T>
int64_t count_mismatches(const char* what, const std::vector<T>& host, const std::vector<T>& device) {
  static_assert(sizeof(T) % 8 == 0);
  int64_t bad = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    if (std::memcmp(&host[i], &device[i], sizeof(T)) == 0) continue;
    if (++bad <= 3) {
      uint64_t h[sizeof(T) / 8], d[sizeof(T) / 8];
      std::memcpy(h, &host[i], sizeof(T));
      std::memcpy(d, &device[i], sizeof(T));
      std::printf("%s mismatch at %zu\n  host  ", what, i);
      for (uint64_t x : h) std::printf(" %016llx", static_cast<unsigned long long>(x));
      std::printf("\n  device");
      for (uint64_t x : d) std::printf(" %016llx", static_cast<unsigned long long>(x));
      std::printf("\n");
    }
  }
  return bad;
}

}  // namespace pp::cuda::test

// Parallel satisfaction check. Blocks stop at the lowest failure seen so far; the minimum over all
// blocks is the first failing constraint, because no block skips a row below a known failure.
// Included only by the instantiation files (r1cs/instantiate.hpp).
#pragma once
#include "r1cs/satisfaction.hpp"

#include <atomic>
#include <cstdint>
#include <limits>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ff/field_bytes.hpp"
#include "r1cs/spmv.hpp"
#include "r1cs/witness_impl.hpp"

namespace pp::r1cs {

template <class Fr>
status check_satisfied(const basic_constraint_system<Fr>& cs, std::span<const std::type_identity_t<Fr>> w) {
  if (status s = check_witness<Fr>(cs, w); !s.ok()) return s;
  constexpr uint64_t none = std::numeric_limits<uint64_t>::max();
  std::atomic<uint64_t> first{none};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cs.num_constraints(), 2048),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        if (i >= first.load(std::memory_order_relaxed)) return;
                        const Fr a = row_dot<true>(cs.a(), i, w.data());
                        const Fr b = row_dot<true>(cs.b(), i, w.data());
                        const Fr c = row_dot<true>(cs.c(), i, w.data());
                        if (a * b == c) continue;
                        uint64_t seen = first.load(std::memory_order_relaxed);
                        while (i < seen && !first.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {
                        }
                        return;
                      }
                    });
  const uint64_t i = first.load();
  if (i == none) return ok_status();
  const Fr a = row_dot<false>(cs.a(), i, w.data());
  const Fr b = row_dot<false>(cs.b(), i, w.data());
  const Fr c = row_dot<false>(cs.c(), i, w.data());
  return invalid_argument("constraint " + std::to_string(i) + " is not satisfied: <A,w>*<B,w> != <C,w> (<A,w> = " +
                          ff::to_hex(a) + ", <B,w> = " + ff::to_hex(b) + ", <C,w> = " + ff::to_hex(c) + ")");
}

}  // namespace pp::r1cs

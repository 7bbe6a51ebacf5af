// Pass plan of the GPU NTT: how the log_n radix-2 stages split into passes over device memory.
// Each pass runs r consecutive stages on tiles of 2^tile_log elements in shared memory. Plain C++.
#pragma once
#include <array>
#include <string>

#include "core/result.hpp"
#include "cuda/plan/ntt_tuning.hpp"

namespace pp::cuda {

// Stages [s0, s0 + r) in decimation-in-frequency numbering (stage t pairs elements n/2^(t+1) apart).
// A tile holds 2^log_c consecutive groups of 2^r elements each: group g = (b, i) is the elements
// b*2^(log_n - s0) + j*L + i for j < 2^r, L = 2^(log_n - s0 - r).
struct ntt_pass {
  int s0 = 0;
  int r = 0;
  int log_c = 0;
};

struct ntt_plan {
  int log_n = 0;
  int count = 0;          // passes; 0 for log_n < 3 (those sizes run a one-thread kernel)
  int elements_log = 3;   // Fr per thread, log2 (the tuning's)
  int max_registers = 0;  // the tuning's: which compilation of the pass kernel runs it
  bool twiddles_ahead = true;  // the tuning's
  std::array<ntt_pass, 4> passes{};
};

// The plan for a transform of size 2^log_n (0 <= log_n <= 28): the last pass (DIF order) takes the
// bottom tile_log stages on contiguous tiles; the stages above split evenly into strided passes of
// at most tile_log - min_columns_log stages. 2^27 at tile 2^9, rows of 2: 6 + 6 + 6 + 9 (4 passes).
// Every pass's tile fits in max_shared_bytes (the device's dynamic shared memory per block): a
// tuning whose tile does not is clamped to the largest tile that does (min_columns_log lowered with
// it if need be); resource_exhausted when not even the kernel's smallest tile fits.
result<ntt_plan> make_ntt_plan(int log_n, const ntt_tuning& tuning = ntt_tuning_sm90,
                               uint64_t max_shared_bytes = ntt_max_tile_bytes);

// The largest shared-memory tile of the plan, in bytes (0 for the one-thread kernel).
uint64_t shared_bytes(const ntt_plan& p);

// "27 r4: [0,6)x8 [6,12)x8 [12,18)x8 [18,27)x1" (stage range, columns per tile; r4: 4 Fr per thread;
// "r4/64:" when the kernel is capped at 64 registers, "r4/64j:" with twiddles just in time).
std::string to_string(const ntt_plan& p);

}  // namespace pp::cuda

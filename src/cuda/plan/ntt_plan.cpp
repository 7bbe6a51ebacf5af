// Pass planning for the GPU NTT (see ntt_plan.hpp).
#include "cuda/plan/ntt_plan.hpp"

#include <algorithm>

namespace pp::cuda {

result<ntt_plan> make_ntt_plan(int log_n, const ntt_tuning& t, uint64_t max_shared_bytes) {
  if (log_n < 0 || log_n > 28) {
    return invalid_argument("ntt plan: log_n must be in [0, 28], got " + std::to_string(log_n));
  }
  if (t.elements_log != 2 && t.elements_log != 3) {
    return invalid_argument("ntt plan: elements_log must be 2 or 3, got " + std::to_string(t.elements_log));
  }
  if (t.max_registers != 0 && !(t.max_registers == 64 && t.elements_log == 2)) {
    return invalid_argument("ntt plan: max_registers must be 0, or 64 with elements_log 2, got " +
                            std::to_string(t.max_registers) + " with " + std::to_string(t.elements_log));
  }
  if (!t.twiddles_ahead && t.max_registers != 64) {
    return invalid_argument("ntt plan: twiddles just in time only with max_registers 64");
  }
  const int et = t.elements_log;
  if (t.tile_log < et + 1 || t.tile_log > ntt_max_tile_log(et, t.max_registers) || t.min_columns_log < 0 ||
      t.min_columns_log >= t.tile_log - et) {
    return invalid_argument("ntt plan: tile_log must be in [" + std::to_string(et + 1) + ", " +
                            std::to_string(ntt_max_tile_log(et, t.max_registers)) + "] with min_columns_log below tile_log - " +
                            std::to_string(et) + ", got " + std::to_string(t.tile_log) + " / " +
                            std::to_string(t.min_columns_log));
  }
  ntt_plan p;
  p.log_n = log_n;
  p.elements_log = et;
  p.max_registers = t.max_registers;
  p.twiddles_ahead = t.twiddles_ahead;
  if (log_n < 3) return p;  // sizes 1, 2, 4: one-thread kernel
  // The largest tile the device's shared memory holds, at most the tuning's; rows shrink with it.
  int tile_log = t.tile_log;
  while (tile_log > et && ntt_tile_bytes(tile_log) > max_shared_bytes) --tile_log;
  if (tile_log < et + 1) {
    return resource_exhausted("ntt plan: " + std::to_string(max_shared_bytes) +
                              " bytes of shared memory per block hold no tile of 2^" + std::to_string(et + 1) +
                              " elements (" + std::to_string(ntt_tile_bytes(et + 1)) + " bytes)");
  }
  const int min_columns_log = std::min(t.min_columns_log, tile_log - et - 1);
  if (log_n <= tile_log) {
    p.count = 1;
    p.passes[0] = {0, log_n, 0};
    return p;
  }
  const int above = log_n - tile_log;
  const int max_r = tile_log - min_columns_log;
  const int strided = (above + max_r - 1) / max_r;
  if (strided + 1 > static_cast<int>(p.passes.size())) {
    return invalid_argument("ntt plan: 2^" + std::to_string(log_n) + " needs " + std::to_string(strided + 1) +
                            " passes at tile 2^" + std::to_string(tile_log) + ", more than " +
                            std::to_string(p.passes.size()));
  }
  int s0 = 0;
  for (int k = 0; k < strided; ++k) {
    const int r = above / strided + (k < above % strided ? 1 : 0);
    p.passes[k] = {s0, r, tile_log - r};
    s0 += r;
  }
  p.passes[strided] = {s0, tile_log, 0};
  p.count = strided + 1;
  return p;
}

uint64_t shared_bytes(const ntt_plan& p) {
  uint64_t most = 0;
  for (int k = 0; k < p.count; ++k) most = std::max(most, ntt_tile_bytes(p.passes[k].r + p.passes[k].log_c));
  return most;
}

std::string to_string(const ntt_plan& p) {
  std::string s = std::to_string(p.log_n) + (p.elements_log == 2 ? (p.max_registers == 64 ? (p.twiddles_ahead ? " r4/64:" : " r4/64j:") : " r4:") : ":");
  if (p.count == 0) return s + " one thread";
  for (int k = 0; k < p.count; ++k) {
    const ntt_pass& q = p.passes[k];
    s += " [" + std::to_string(q.s0) + "," + std::to_string(q.s0 + q.r) + ")x" + std::to_string(1 << q.log_c);
  }
  return s;
}

}  // namespace pp::cuda

// ntt_tables: the byte layout of one domain's resident NTT tables (device_ntt_domain, ntt_device.hpp):
// n/2 + 1 twiddles, then the two-level coset tables (powers of g, of g^-1, and g^x / n's high half),
// each section 256-byte aligned. Plain C++: the VRAM plan sizes a key with it.
#pragma once
#include <cstdint>

namespace pp::cuda {

inline constexpr uint64_t ntt_table_align = 256;
inline constexpr int ntt_coset_lo_max_log = 12;  // two-level coset tables: 2^12 low powers, n/2^12 high ones

struct ntt_table_layout {
  uint64_t tw, lo, hi;  // element counts
  int lo_log;
  uint64_t off_lo, off_hi, off_ilo, off_ihi, off_shi, total;  // byte offsets
};

constexpr uint64_t ntt_table_align_up(uint64_t x) { return (x + ntt_table_align - 1) / ntt_table_align * ntt_table_align; }

constexpr ntt_table_layout ntt_tables_for(int log_n) {
  constexpr uint64_t fr_bytes = 32;
  ntt_table_layout t{};
  const uint64_t n = uint64_t{1} << log_n;
  t.tw = n / 2 + 1;
  t.lo_log = log_n < ntt_coset_lo_max_log ? log_n : ntt_coset_lo_max_log;
  t.lo = uint64_t{1} << t.lo_log;
  t.hi = n >> t.lo_log;
  t.off_lo = ntt_table_align_up(t.tw * fr_bytes);
  t.off_hi = t.off_lo + ntt_table_align_up(t.lo * fr_bytes);
  t.off_ilo = t.off_hi + ntt_table_align_up(t.hi * fr_bytes);
  t.off_ihi = t.off_ilo + ntt_table_align_up(t.lo * fr_bytes);
  t.off_shi = t.off_ihi + ntt_table_align_up(t.hi * fr_bytes);
  t.total = t.off_shi + ntt_table_align_up(t.hi * fr_bytes);
  return t;
}

}  // namespace pp::cuda

// qap_tables.hpp: the QAP tables' bytes from the domain's size alone.
#include "cuda/plan/qap_tables.hpp"

#include <string>

#include "cuda/plan/ntt_tables.hpp"
#include "poly/domain.hpp"

namespace pp::cuda {

result<uint64_t> qap_tables_bytes(int log_n, groth16::h_basis basis) {
  if (log_n < 0 || log_n > poly::evaluation_domain::max_log_n) {
    return invalid_argument("QAP tables: log_n must be in [0, " + std::to_string(poly::evaluation_domain::max_log_n) +
                            "], got " + std::to_string(log_n));
  }
  constexpr uint64_t fr_bytes = 32;
  uint64_t bytes = ntt_table_align_up(ntt_tables_for(log_n).total);
  if (basis == groth16::h_basis::odd_coset_lagrange) {
    const int lo = qap_shift_lo_log(log_n);
    bytes += ntt_table_align_up((uint64_t{1} << lo) * fr_bytes) + ntt_table_align_up((uint64_t{1} << (log_n - lo)) * fr_bytes);
  }
  return bytes;
}

}  // namespace pp::cuda

// qap_tables: the bytes of a key's resident QAP tables on the device (device_qap, groth16_qap.hpp): its
// domain's NTT tables (ntt_tables.hpp) and, for the snarkjs basis, the powers of omega_2n in two
// levels (2^qap_shift_lo_log low ones, the rest high). Plain C++: the VRAM plan sizes a key with it.
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "groth16/keys.hpp"

namespace pp::cuda {

constexpr int qap_shift_lo_log(int log_n) { return (log_n + 1) / 2; }

// invalid_argument unless 0 <= log_n <= poly::evaluation_domain::max_log_n.
result<uint64_t> qap_tables_bytes(int log_n, groth16::h_basis basis);

}  // namespace pp::cuda

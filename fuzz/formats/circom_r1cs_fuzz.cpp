// Fuzzes read_circom_r1cs: any input must give a value or an error, never a crash, leak or huge
// allocation; an accepted input must re-serialize to bytes that read back to the same value and
// serialize again to the same bytes.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/circom_r1cs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  pp::formats::circom_limits limits;
  limits.max_wires = 1 << 20;  // keep allocations under the fuzzer's RSS limit
  limits.max_constraints = 1 << 20;
  auto r = pp::formats::read_circom_r1cs(std::span(data, size), limits);
  if (!r.ok()) {
    if (r.error().message().empty()) std::abort();
    return 0;
  }
  auto bytes = pp::formats::write_circom_r1cs(*r);
  if (!bytes.ok()) std::abort();
  auto again = pp::formats::read_circom_r1cs(*bytes, limits);
  if (!again.ok() || !(*again == *r)) std::abort();
  auto bytes2 = pp::formats::write_circom_r1cs(*again);
  if (!bytes2.ok() || *bytes2 != *bytes) std::abort();
  return 0;
}

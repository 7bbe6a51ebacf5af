// Fuzzes read_circom_r1cs: any input must give a value or an error, never a crash, leak or huge
// allocation; an accepted input must re-serialize to bytes that read back to the same value and
// serialize again to the same bytes. Both curves' readers see every input (the header's prime picks
// the one that accepts it).
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/circom_r1cs.hpp"

namespace {

template <class Fr>
void one_curve(std::span<const uint8_t> in) {
  pp::formats::circom_limits limits;
  limits.max_wires = 1 << 20;  // keep allocations under the fuzzer's RSS limit
  limits.max_constraints = 1 << 20;
  auto r = pp::formats::read_circom_r1cs<Fr>(in, limits);
  if (!r.ok()) {
    if (r.error().message().empty()) std::abort();
    return;
  }
  auto bytes = pp::formats::write_circom_r1cs(*r);
  if (!bytes.ok()) std::abort();
  auto again = pp::formats::read_circom_r1cs<Fr>(*bytes, limits);
  if (!again.ok() || !(*again == *r)) std::abort();
  auto bytes2 = pp::formats::write_circom_r1cs(*again);
  if (!bytes2.ok() || *bytes2 != *bytes) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  one_curve<pp::ff::fr>(std::span(data, size));
  one_curve<pp::ff::bn254::fr>(std::span(data, size));
  return 0;
}

// Fuzzes read_circom_wtns: errors or values, never a crash or leak; accepted inputs re-serialize to
// bytes that read back to the same witness and serialize again identically.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/circom_wtns.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  pp::formats::circom_limits limits;
  limits.max_wires = 1 << 20;
  auto w = pp::formats::read_circom_wtns(std::span(data, size), limits);
  if (!w.ok()) {
    if (w.error().message().empty()) std::abort();
    return 0;
  }
  auto bytes = pp::formats::write_circom_wtns(*w);
  if (!bytes.ok()) std::abort();
  auto again = pp::formats::read_circom_wtns(*bytes, limits);
  if (!again.ok() || *again != *w) std::abort();
  if (pp::formats::write_circom_wtns(*again).value() != *bytes) std::abort();
  return 0;
}

// Fuzzes read_circom_wtns: errors or values, never a crash or leak; accepted inputs re-serialize to
// bytes that read back to the same witness and serialize again identically. Both curves' readers see
// every input.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/circom_wtns.hpp"

namespace {

template <class Fr>
void one_curve(std::span<const uint8_t> in) {
  pp::formats::circom_limits limits;
  limits.max_wires = 1 << 20;
  auto w = pp::formats::read_circom_wtns<Fr>(in, limits);
  if (!w.ok()) {
    if (w.error().message().empty()) std::abort();
    return;
  }
  auto bytes = pp::formats::write_circom_wtns(std::span<const Fr>(*w));
  if (!bytes.ok()) std::abort();
  auto again = pp::formats::read_circom_wtns<Fr>(*bytes, limits);
  if (!again.ok() || *again != *w) std::abort();
  if (pp::formats::write_circom_wtns(std::span<const Fr>(*again)).value() != *bytes) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  one_curve<pp::ff::fr>(std::span(data, size));
  one_curve<pp::ff::bn254::fr>(std::span(data, size));
  return 0;
}

// libFuzzer target: decodes arbitrary bytes with every G1/G2 decoder (compressed, uncompressed,
// and their unchecked variants). Every accepted point must re-encode to the same bytes; points from
// the checked decoders must be on the curve and in the subgroup ([r] P == O), and the compressed
// unchecked decoder's on the curve. Aborts otherwise. Seeds: fuzz/ec/corpus (noble encodings).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "ec/encoding.hpp"
#include "ec/subgroup.hpp"

namespace {

void fail(const char* what) {
  std::fprintf(stderr, "point_decode_fuzz: %s\n", what);
  std::abort();
}

template <class Bytes>
bool same_bytes(const Bytes& enc, std::span<const uint8_t> in) {
  if (enc.size() != in.size()) return false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (enc[i] != in[i]) return false;
  }
  return true;
}

template <class Curve>
void check(std::span<const uint8_t> in) {
  using namespace pp::ec;
  if (auto p = decode_compressed<Curve>(in); p.ok()) {
    if (!is_on_curve(*p)) fail("compressed: accepted a point off the curve");
    if (!is_in_subgroup_naive(*p)) fail("compressed: accepted a point outside the subgroup");
    if (!same_bytes(encode_compressed(*p), in)) fail("compressed: re-encoding differs");
  }
  if (auto p = decode_uncompressed<Curve>(in); p.ok()) {
    if (!is_on_curve(*p)) fail("uncompressed: accepted a point off the curve");
    if (!is_in_subgroup_naive(*p)) fail("uncompressed: accepted a point outside the subgroup");
    if (!same_bytes(encode_uncompressed(*p), in)) fail("uncompressed: re-encoding differs");
  }
  if (auto p = decode_compressed_unchecked<Curve>(in); p.ok()) {
    if (!is_on_curve(*p)) fail("compressed unchecked: accepted a point off the curve");
    if (!same_bytes(encode_compressed(*p), in)) fail("compressed unchecked: re-encoding differs");
  }
  if (auto p = decode_uncompressed_unchecked<Curve>(in); p.ok()) {
    if (!same_bytes(encode_uncompressed(*p), in)) fail("uncompressed unchecked: re-encoding differs");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> in(data, size);
  check<pp::ec::g1_curve>(in);
  check<pp::ec::g2_curve>(in);
  return 0;
}

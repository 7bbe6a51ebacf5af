// bellperson proof bytes: three zcash compressed points back to back.
#include "formats/bellperson_proof.hpp"

#include <cstring>
#include <string>

#include "core/status_macros.hpp"
#include "ec/encoding.hpp"

namespace pp::formats {

namespace {

template <class Curve>
result<ec::affine<Curve>> read_part(std::span<const uint8_t> bytes, std::size_t offset, const char* name) {
  constexpr std::size_t size = ec::encoding_sizes<Curve>::compressed;
  auto p = ec::decode_compressed<Curve>(bytes.subspan(offset, size));
  const std::string where = std::string("bellperson proof ") + name + " (bytes " + std::to_string(offset) + ".." +
                            std::to_string(offset + size) + ")";
  if (!p.ok()) return std::move(p).take_status().with_context(where);
  if (ec::is_infinity(*p)) return invalid_argument(where + ": point at infinity");
  return p;
}

}  // namespace

result<groth16::proof> read_bellperson_proof(std::span<const uint8_t> bytes) {
  if (bytes.size() != bellperson_proof_size) {
    return invalid_argument("bellperson proof: expected 192 bytes, got " + std::to_string(bytes.size()));
  }
  groth16::proof p;
  PP_ASSIGN_OR_RETURN(p.a, read_part<ec::g1_curve>(bytes, 0, "A"));
  PP_ASSIGN_OR_RETURN(p.b, read_part<ec::g2_curve>(bytes, 48, "B"));
  PP_ASSIGN_OR_RETURN(p.c, read_part<ec::g1_curve>(bytes, 144, "C"));
  return p;
}

std::array<uint8_t, bellperson_proof_size> write_bellperson_proof(const groth16::proof& proof) {
  std::array<uint8_t, bellperson_proof_size> out{};
  const auto a = ec::encode_compressed(proof.a);
  const auto b = ec::encode_compressed(proof.b);
  const auto c = ec::encode_compressed(proof.c);
  std::memcpy(out.data(), a.data(), a.size());
  std::memcpy(out.data() + 48, b.data(), b.size());
  std::memcpy(out.data() + 144, c.data(), c.size());
  return out;
}

}  // namespace pp::formats

// libFuzzer over the snarkjs readers' span/string APIs: the .zkey reader (range-only and on-curve
// checks) and, on the same bytes as text, the three JSON readers. None may crash, hang or leak;
// a zkey that reads must write and read back to the same key. Both curves' readers see every input.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_zkey.hpp"

namespace {

template <class Family>
void one_curve(std::span<const uint8_t> bytes) {
  using namespace pp::formats;
  for (auto check : {zkey_point_check::range_only, zkey_point_check::on_curve}) {
    auto z = read_snarkjs_zkey<Family>(bytes, {check});
    if (!z.ok()) continue;
    auto written = write_snarkjs_zkey(*z);
    if (!written.ok()) __builtin_trap();
    auto again = read_snarkjs_zkey<Family>(*written, {zkey_point_check::range_only});
    if (!again.ok() || !(again->coefficients == z->coefficients) || !(again->pk.h == z->pk.h)) __builtin_trap();
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  (void)read_snarkjs_vk_json<Family>(text).ok();
  (void)read_snarkjs_proof_json<Family>(text).ok();
  (void)read_snarkjs_public_json<typename Family::fr>(text).ok();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  one_curve<pp::ec::bls12_381::family>(bytes);
  one_curve<pp::ec::bn254::family>(bytes);
  return 0;
}

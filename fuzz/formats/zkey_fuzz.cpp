// libFuzzer over the snarkjs readers' span/string APIs: the .zkey reader (range-only and on-curve
// checks) and, on the same bytes as text, the three JSON readers. None may crash, hang or leak;
// a zkey that reads must write and read back to the same key.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_zkey.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace pp::formats;
  const std::span<const uint8_t> bytes(data, size);
  for (auto check : {zkey_point_check::range_only, zkey_point_check::on_curve}) {
    auto z = read_snarkjs_zkey(bytes, {check});
    if (!z.ok()) continue;
    auto written = write_snarkjs_zkey(*z);
    if (!written.ok()) __builtin_trap();
    auto again = read_snarkjs_zkey(*written, {zkey_point_check::range_only});
    if (!again.ok() || !(again->coefficients == z->coefficients) || !(again->pk.h == z->pk.h)) __builtin_trap();
  }
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)read_snarkjs_vk_json(text).ok();
  (void)read_snarkjs_proof_json(text).ok();
  (void)read_snarkjs_public_json(text).ok();
  return 0;
}

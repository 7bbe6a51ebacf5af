// libFuzzer over the bellperson parameters reader (formats/bellperson_params.hpp), checked and
// unchecked: none may crash, hang or leak, and a file that reads writes back byte for byte (every
// accepted point has one encoding), so the parallel decode's points are exactly the file's.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "formats/bellperson_params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace pp::formats;
  const std::span<const uint8_t> bytes(data, size);
  for (bool checked : {false, true}) {
    auto pk = read_bellperson_params(bytes, {.checked = checked});
    if (!pk.ok()) continue;
    auto written = write_bellperson_params(*pk);
    if (!written.ok() || *written != std::vector<uint8_t>(bytes.begin(), bytes.end())) __builtin_trap();
  }
  return 0;
}

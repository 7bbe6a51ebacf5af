// .wtns parsing: header, then exactly nWitness 32-byte values, each range-checked.
#include "formats/circom_wtns.hpp"

#include <string>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "formats/binfile.hpp"
#include "formats/circom_field.hpp"
#include "formats/mapped_file.hpp"

namespace pp::formats {

namespace {

using ff::fr;

result<std::vector<fr>> read(std::span<const uint8_t> file, const circom_limits& limits) {
  static constexpr uint32_t versions[] = {2};
  PP_ASSIGN_OR_RETURN(const binfile_sections table, read_binfile_sections(file, "wtns", versions, ".wtns"));
  PP_ASSIGN_OR_RETURN(const section_entry* hs, table.find(1, "header"));
  PP_ASSIGN_OR_RETURN(const section_entry* ds, table.find(2, "witness values"));
  if (hs == nullptr) return data_loss("section 1 (header) is missing");
  if (ds == nullptr) return data_loss("section 2 (witness values) is missing");

  byte_reader hr(file, *hs, "section 1 (header)");
  PP_RETURN_IF_ERROR(read_circom_field(hr, ".wtns", "compute the witness with a circuit compiled with circom -p bls12381"));
  PP_ASSIGN_OR_RETURN(const uint32_t n, hr.u32("nWitness"));
  PP_RETURN_IF_ERROR(hr.expect_end());
  if (n > limits.max_wires) {
    return resource_exhausted("header: nWitness " + std::to_string(n) + " exceeds the limit " +
                              std::to_string(limits.max_wires));
  }
  if (ds->size != uint64_t{n} * 32) {
    return data_loss("section 2 (witness values) has " + std::to_string(ds->size) + " bytes, expected nWitness " +
                     std::to_string(n) + " * 32 = " + std::to_string(uint64_t{n} * 32));
  }
  byte_reader rd(file, *ds, "section 2 (witness values)");
  std::vector<fr> w(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!read_fr_unchecked(rd, w[i])) {
      return invalid_argument("witness value " + std::to_string(i) + " (offset " + std::to_string(rd.offset() - 32) +
                              ") >= the BLS12-381 scalar modulus r");
    }
  }
  return w;
}

}  // namespace

result<std::vector<fr>> read_circom_wtns(std::span<const uint8_t> bytes, const circom_limits& limits) {
  return read(bytes, limits);
}

result<std::vector<fr>> read_circom_wtns_file(const std::filesystem::path& path, const circom_limits& limits) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<std::vector<fr>> {
    auto r = read(bytes, limits);
    if (!r.ok()) return r.error().with_context("reading " + path.string());
    return r;
  });
}

result<std::vector<uint8_t>> write_circom_wtns(std::span<const fr> w) {
  if (w.size() > UINT32_MAX) {
    return invalid_argument(std::to_string(w.size()) + " witness values do not fit the u32 nWitness field");
  }
  binfile_writer out("wtns", 2, 2);
  out.reserve(12 + 12 + 40 + 12 + 32 * w.size());
  out.begin_section(1);
  write_circom_field(out);
  out.u32(static_cast<uint32_t>(w.size()));
  out.end_section();
  out.begin_section(2);
  for (const fr& x : w) write_fr(out, x);
  out.end_section();
  return std::move(out).finish();
}

status write_circom_wtns_file(std::span<const fr> w, const std::filesystem::path& path) {
  auto bytes = write_circom_wtns(w);
  if (!bytes.ok()) return bytes.error().with_context("writing " + path.string());
  return write_output_file(path, *bytes);
}

}  // namespace pp::formats

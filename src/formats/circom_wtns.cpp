// .wtns parsing: header, then exactly nWitness 32-byte values, each range-checked; written once
// over Fr and instantiated for both curves at the end.
#include "formats/circom_wtns.hpp"

#include <string>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "formats/binfile.hpp"
#include "formats/circom_field.hpp"
#include "formats/mapped_file.hpp"

namespace pp::formats {

namespace {

constexpr const char* kind = ".wtns";
constexpr const char* fix = "compute the witness with a circuit compiled with circom -p ";

struct wtns_sections {
  const section_entry* header = nullptr;
  const section_entry* values = nullptr;
};

result<wtns_sections> find_sections(std::span<const uint8_t> file, binfile_sections& table) {
  static constexpr uint32_t versions[] = {2};
  PP_ASSIGN_OR_RETURN(table, read_binfile_sections(file, "wtns", versions, kind));
  wtns_sections s;
  PP_ASSIGN_OR_RETURN(s.header, table.find(1, "header"));
  PP_ASSIGN_OR_RETURN(s.values, table.find(2, "witness values"));
  if (s.header == nullptr) return data_loss("section 1 (header) is missing");
  return s;
}

template <class Fr>
result<std::vector<Fr>> read(std::span<const uint8_t> file, const circom_limits& limits) {
  constexpr ec::curve_id curve = ec::curve_id_of<ec::family_of_fr<Fr>>;
  binfile_sections table;
  PP_ASSIGN_OR_RETURN(const wtns_sections sec, find_sections(file, table));
  if (sec.values == nullptr) return data_loss("section 2 (witness values) is missing");
  byte_reader hr(file, *sec.header, "section 1 (header)");
  PP_RETURN_IF_ERROR(read_circom_field(hr, curve, kind, fix));
  PP_ASSIGN_OR_RETURN(const uint32_t n, hr.u32("nWitness"));
  PP_RETURN_IF_ERROR(hr.expect_end());
  if (n > limits.max_wires) {
    return resource_exhausted("header: nWitness " + std::to_string(n) + " exceeds the limit " +
                              std::to_string(limits.max_wires));
  }
  const section_entry* ds = sec.values;
  if (ds->size != uint64_t{n} * 32) {
    return data_loss("section 2 (witness values) has " + std::to_string(ds->size) + " bytes, expected nWitness " +
                     std::to_string(n) + " * 32 = " + std::to_string(uint64_t{n} * 32));
  }
  byte_reader rd(file, *ds, "section 2 (witness values)");
  std::vector<Fr> w(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!read_fr_unchecked(rd, w[i])) {
      return invalid_argument("witness value " + std::to_string(i) + " (offset " + std::to_string(rd.offset() - 32) +
                              ") >= the " + ec::curve_name(curve) + " scalar modulus r");
    }
  }
  return w;
}

result<ec::curve_id> read_curve(std::span<const uint8_t> file) {
  binfile_sections table;
  PP_ASSIGN_OR_RETURN(const wtns_sections sec, find_sections(file, table));
  byte_reader hr(file, *sec.header, "section 1 (header)");
  return read_circom_curve(hr, kind, fix);
}

template <class Fr>
result<std::vector<uint8_t>> write(std::span<const Fr> w) {
  if (w.size() > UINT32_MAX) {
    return invalid_argument(std::to_string(w.size()) + " witness values do not fit the u32 nWitness field");
  }
  binfile_writer out("wtns", 2, 2);
  out.reserve(12 + 12 + 40 + 12 + 32 * w.size());
  out.begin_section(1);
  write_circom_field<Fr>(out);
  out.u32(static_cast<uint32_t>(w.size()));
  out.end_section();
  out.begin_section(2);
  for (const Fr& x : w) write_fr(out, x);
  out.end_section();
  return std::move(out).finish();
}

template <class Fr>
status write_file(std::span<const Fr> w, const std::filesystem::path& path) {
  auto bytes = write(w);
  if (!bytes.ok()) return bytes.error().with_context("writing " + path.string());
  return write_output_file(path, *bytes);
}

}  // namespace

template <class Fr>
result<std::vector<Fr>> read_circom_wtns(std::span<const uint8_t> bytes, const circom_limits& limits) {
  return read<Fr>(bytes, limits);
}

template <class Fr>
result<std::vector<Fr>> read_circom_wtns_file(const std::filesystem::path& path, const circom_limits& limits) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<std::vector<Fr>> {
    auto r = read<Fr>(bytes, limits);
    if (!r.ok()) return r.error().with_context("reading " + path.string());
    return r;
  });
}

result<ec::curve_id> read_circom_wtns_curve(std::span<const uint8_t> bytes) { return read_curve(bytes); }

result<ec::curve_id> read_circom_wtns_curve_file(const std::filesystem::path& path) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<ec::curve_id> {
    auto r = read_curve(bytes);
    if (!r.ok()) return r.error().with_context("reading " + path.string());
    return r;
  });
}

result<std::vector<uint8_t>> write_circom_wtns(std::span<const ff::fr> w) { return write(w); }
result<std::vector<uint8_t>> write_circom_wtns(std::span<const ff::bn254::fr> w) { return write(w); }
status write_circom_wtns_file(std::span<const ff::fr> w, const std::filesystem::path& path) {
  return write_file(w, path);
}
status write_circom_wtns_file(std::span<const ff::bn254::fr> w, const std::filesystem::path& path) {
  return write_file(w, path);
}

#define PP_INSTANTIATE(Fr)                                                                                  \
  template result<std::vector<Fr>> read_circom_wtns<Fr>(std::span<const uint8_t>, const circom_limits&); \
  template result<std::vector<Fr>> read_circom_wtns_file<Fr>(const std::filesystem::path&, const circom_limits&);
PP_INSTANTIATE(ff::fr)
PP_INSTANTIATE(ff::bn254::fr)
#undef PP_INSTANTIATE

}  // namespace pp::formats

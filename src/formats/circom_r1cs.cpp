// .r1cs parsing into CSR matrices: the constraint section is read once, row by row, with every
// count checked against the bytes left before anything is reserved. Written once over Fr,
// instantiated for both curves at the end.
#include "formats/circom_r1cs.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "formats/binfile.hpp"
#include "formats/circom_field.hpp"
#include "formats/mapped_file.hpp"

namespace pp::formats {

namespace {

constexpr const char* kind = ".r1cs";
constexpr const char* fix = "recompile the circuit with circom -p ";
constexpr uint64_t term_bytes = 4 + 32;
constexpr const char* matrix_names[3] = {"A", "B", "C"};

struct header {
  uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in;
  uint64_t n_labels;
  uint32_t n_constraints;
};

// The header of a file for `curve` (any supported curve when nullopt).
result<header> read_header(std::span<const uint8_t> file, const section_entry& s, const circom_limits& limits,
                           std::optional<ec::curve_id> curve) {
  byte_reader rd(file, s, "section 1 (header)");
  if (curve) {
    PP_RETURN_IF_ERROR(read_circom_field(rd, *curve, kind, fix));
  } else {
    PP_RETURN_IF_ERROR(read_circom_curve(rd, kind, fix).take_status());
  }
  PP_RETURN_IF_ERROR(rd.require(28, "header counts (nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints)"));
  header h;
  h.n_wires = rd.u32_unchecked();
  h.n_pub_out = rd.u32_unchecked();
  h.n_pub_in = rd.u32_unchecked();
  h.n_prv_in = rd.u32_unchecked();
  h.n_labels = rd.u64_unchecked();
  h.n_constraints = rd.u32_unchecked();
  PP_RETURN_IF_ERROR(rd.expect_end());
  const uint64_t declared = uint64_t{1} + h.n_pub_out + h.n_pub_in + h.n_prv_in;
  if (declared > h.n_wires) {
    return invalid_argument("header: nWires " + std::to_string(h.n_wires) + " is less than 1 + nPubOut " +
                            std::to_string(h.n_pub_out) + " + nPubIn " + std::to_string(h.n_pub_in) + " + nPrvIn " +
                            std::to_string(h.n_prv_in));
  }
  if (h.n_wires > limits.max_wires) {
    return resource_exhausted("header: nWires " + std::to_string(h.n_wires) + " exceeds the limit " +
                              std::to_string(limits.max_wires));
  }
  if (h.n_constraints > limits.max_constraints) {
    return resource_exhausted("header: nConstraints " + std::to_string(h.n_constraints) + " exceeds the limit " +
                              std::to_string(limits.max_constraints));
  }
  return h;
}

template <class Fr>
status read_constraints(std::span<const uint8_t> file, const section_entry& s, const header& h,
                        const circom_limits& limits, r1cs::basic_csr_matrix<Fr> (&m)[3]) {
  byte_reader rd(file, s, "section 2 (constraints)");
  // Every constraint holds at least three u32 term counts.
  if (s.size / 12 < h.n_constraints) {
    return data_loss("header says " + std::to_string(h.n_constraints) + " constraints, which need at least " +
                     std::to_string(uint64_t{h.n_constraints} * 12) + " bytes, but section 2 has " +
                     std::to_string(s.size));
  }
  const uint64_t max_terms = std::min(limits.max_terms, s.size / term_bytes);
  for (auto& x : m) x.row_ptr.reserve(uint64_t{h.n_constraints} + 1);
  uint64_t total = 0;
  for (uint32_t i = 0; i < h.n_constraints; ++i) {
    for (int k = 0; k < 3; ++k) {
      if (rd.remaining() < 4) {
        return rd.truncated(4, "term count of " + std::string(matrix_names[k]) + " in constraint " + std::to_string(i));
      }
      const uint64_t count_at = rd.offset();
      const uint32_t n = rd.u32_unchecked();
      if (uint64_t{n} * term_bytes > rd.remaining()) {
        return data_loss("truncated at offset " + std::to_string(count_at) + ": constraint " + std::to_string(i) +
                         " has " + std::to_string(n) + " " + matrix_names[k] + " terms (" +
                         std::to_string(uint64_t{n} * term_bytes) + " bytes) but section 2 ends at offset " +
                         std::to_string(rd.end()));
      }
      total += n;
      if (total > limits.max_terms) {
        return resource_exhausted("constraint " + std::to_string(i) + ": more than " +
                                  std::to_string(limits.max_terms) + " terms in total (the limit)");
      }
      r1cs::basic_csr_matrix<Fr>& x = m[k];
      if (x.cols.capacity() < x.cols.size() + n) {
        // Grow geometrically, but never past what the section can still hold.
        const uint64_t want = std::min<uint64_t>(std::max<uint64_t>(2 * x.cols.capacity(), x.cols.size() + n),
                                                 x.cols.size() + max_terms);
        x.cols.reserve(want);
        x.coeffs.reserve(want);
      }
      for (uint32_t t = 0; t < n; ++t) {
        const uint32_t wire = rd.u32_unchecked();
        if (wire >= h.n_wires) {
          return invalid_argument("constraint " + std::to_string(i) + ", " + matrix_names[k] + " term " +
                                  std::to_string(t) + " (offset " + std::to_string(rd.offset() - 4) + "): wire id " +
                                  std::to_string(wire) + " out of range, nWires is " + std::to_string(h.n_wires));
        }
        Fr coeff;
        if (!read_fr_unchecked(rd, coeff)) {
          return invalid_argument("constraint " + std::to_string(i) + ", " + matrix_names[k] + " term " +
                                  std::to_string(t) + " (offset " + std::to_string(rd.offset() - 32) +
                                  "): coefficient >= the " + ec::family_of_fr<Fr>::name + " scalar modulus r");
        }
        x.cols.push_back(wire);
        x.coeffs.push_back(coeff);
      }
      x.row_ptr.push_back(x.cols.size());
    }
  }
  return rd.expect_end();
}

status read_labels(std::span<const uint8_t> file, const section_entry& s, const header& h,
                   std::vector<uint64_t>& out) {
  if (s.size != uint64_t{h.n_wires} * 8) {
    return data_loss("section 3 (wire map) has " + std::to_string(s.size) + " bytes, expected nWires " +
                     std::to_string(h.n_wires) + " * 8 = " + std::to_string(uint64_t{h.n_wires} * 8));
  }
  byte_reader rd(file, s, "section 3 (wire map)");
  out.resize(h.n_wires);
  for (uint64_t& l : out) l = rd.u64_unchecked();
  return ok_status();
}

// Section 1's table entry, for the header-only readers.
result<section_entry> header_section(std::span<const uint8_t> file) {
  static constexpr uint32_t versions[] = {1};
  PP_ASSIGN_OR_RETURN(const binfile_sections t, read_binfile_sections(file, "r1cs", versions, kind));
  PP_ASSIGN_OR_RETURN(const section_entry* s, t.find(1, "header"));
  if (s == nullptr) return data_loss("section 1 (header) is missing");
  return *s;
}

template <class Fr>
result<basic_circom_r1cs<Fr>> read(std::span<const uint8_t> file, const circom_limits& limits) {
  static constexpr uint32_t versions[] = {1};
  PP_ASSIGN_OR_RETURN(const binfile_sections table, read_binfile_sections(file, "r1cs", versions, kind));
  for (uint32_t id : {4u, 5u}) {
    PP_ASSIGN_OR_RETURN(const section_entry* s, table.find(id, "custom gates"));
    if (s != nullptr) {
      return unimplemented("section " + std::to_string(id) +
                           " holds PLONK custom gates, which Groth16 cannot prove; compile without custom templates");
    }
  }
  PP_ASSIGN_OR_RETURN(const section_entry* hs, table.find(1, "header"));
  PP_ASSIGN_OR_RETURN(const section_entry* cs_sec, table.find(2, "constraints"));
  PP_ASSIGN_OR_RETURN(const section_entry* ls, table.find(3, "wire map"));
  if (hs == nullptr) return data_loss("section 1 (header) is missing");
  // The header first: a file for the wrong curve should say so, whatever else is wrong with it.
  PP_ASSIGN_OR_RETURN(const header h, read_header(file, *hs, limits, ec::curve_id_of<ec::family_of_fr<Fr>>));
  if (cs_sec == nullptr) return data_loss("section 2 (constraints) is missing");
  basic_circom_r1cs<Fr> out;
  out.n_pub_out = h.n_pub_out;
  out.n_pub_in = h.n_pub_in;
  out.n_prv_in = h.n_prv_in;
  out.n_labels = h.n_labels;
  r1cs::basic_csr_matrix<Fr> m[3];
  PP_RETURN_IF_ERROR(read_constraints(file, *cs_sec, h, limits, m));
  if (ls != nullptr) {
    out.wire_labels.emplace();
    PP_RETURN_IF_ERROR(read_labels(file, *ls, h, *out.wire_labels));
  }
  out.section_order.clear();
  for (const section_entry& s : table.sections) {
    if (s.id >= 1 && s.id <= 3) out.section_order.push_back(s.id);
  }
  const uint64_t n_public = uint64_t{h.n_pub_out} + h.n_pub_in;
  PP_ASSIGN_OR_RETURN(out.cs, r1cs::basic_constraint_system<Fr>::make(n_public, h.n_wires - 1 - n_public, std::move(m[0]),
                                                            std::move(m[1]), std::move(m[2])));
  return out;
}

}  // namespace

template <class Fr>
basic_circom_r1cs<Fr> make_circom_r1cs(r1cs::basic_constraint_system<Fr> cs) {
  basic_circom_r1cs<Fr> r;
  r.n_pub_in = static_cast<uint32_t>(cs.num_public());
  r.n_labels = cs.num_variables();
  r.wire_labels.emplace(cs.num_variables());
  for (uint64_t i = 0; i < cs.num_variables(); ++i) (*r.wire_labels)[i] = i;
  r.cs = std::move(cs);
  return r;
}

template <class Fr>
result<basic_circom_r1cs<Fr>> read_circom_r1cs(std::span<const uint8_t> bytes, const circom_limits& limits) {
  return read<Fr>(bytes, limits);
}

template <class Fr>
result<basic_circom_r1cs<Fr>> read_circom_r1cs_file(const std::filesystem::path& path, const circom_limits& limits) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<basic_circom_r1cs<Fr>> {
    auto r = read<Fr>(bytes, limits);
    if (!r.ok()) return r.error().with_context("reading " + path.string());
    return r;
  });
}

result<uint32_t> read_circom_r1cs_num_wires_file(const std::filesystem::path& path) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<uint32_t> {
    auto wires = [&]() -> result<uint32_t> {
      PP_ASSIGN_OR_RETURN(const section_entry s, header_section(bytes));
      PP_ASSIGN_OR_RETURN(const header h, read_header(bytes, s, circom_limits{}, std::nullopt));
      return h.n_wires;
    };
    auto n = wires();
    if (!n.ok()) return std::move(n).take_status().with_context("reading " + path.string());
    return n;
  });
}

result<ec::curve_id> read_circom_r1cs_curve(std::span<const uint8_t> bytes) {
  PP_ASSIGN_OR_RETURN(const section_entry s, header_section(bytes));
  byte_reader rd(bytes, s, "section 1 (header)");
  return read_circom_curve(rd, kind, fix);
}

result<ec::curve_id> read_circom_r1cs_curve_file(const std::filesystem::path& path) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<ec::curve_id> {
    auto c = read_circom_r1cs_curve(bytes);
    if (!c.ok()) return std::move(c).take_status().with_context("reading " + path.string());
    return c;
  });
}

template <class Fr>
result<std::vector<uint8_t>> write_circom_r1cs(const basic_circom_r1cs<Fr>& r) {
  const r1cs::basic_constraint_system<Fr>& cs = r.cs;
  if (cs.num_variables() > UINT32_MAX) {
    return invalid_argument(std::to_string(cs.num_variables()) + " wires do not fit the u32 nWires field");
  }
  if (cs.num_constraints() > UINT32_MAX) {
    return invalid_argument(std::to_string(cs.num_constraints()) + " constraints do not fit the u32 nConstraints field");
  }
  if (uint64_t{r.n_pub_out} + r.n_pub_in != cs.num_public()) {
    return invalid_argument("nPubOut " + std::to_string(r.n_pub_out) + " + nPubIn " + std::to_string(r.n_pub_in) +
                            " must equal the " + std::to_string(cs.num_public()) + " public variables");
  }
  if (r.n_prv_in > cs.num_aux()) {
    return invalid_argument("nPrvIn " + std::to_string(r.n_prv_in) + " exceeds the " + std::to_string(cs.num_aux()) +
                            " aux variables");
  }
  if (r.wire_labels && r.wire_labels->size() != cs.num_variables()) {
    return invalid_argument("wire map has " + std::to_string(r.wire_labels->size()) + " labels, expected one per wire (" +
                            std::to_string(cs.num_variables()) + ")");
  }
  std::vector<uint32_t> want{1, 2};
  if (r.wire_labels) want.push_back(3);
  std::vector<uint32_t> order = r.section_order;
  std::sort(order.begin(), order.end());
  if (order != want) {
    return invalid_argument(std::string("section_order must list sections 1, 2") + (r.wire_labels ? ", 3" : "") +
                            " once each");
  }
  uint64_t size = 12 + 12 * r.section_order.size() + 64 + (r.wire_labels ? 8 * cs.num_variables() : 0);
  for (int k = 0; k < 3; ++k) {
    size += 4 * cs.num_constraints() + term_bytes * cs.matrix(static_cast<r1cs::matrix_id>(k)).nnz();
  }
  binfile_writer w("r1cs", 1, static_cast<uint32_t>(r.section_order.size()));
  w.reserve(size);
  for (uint32_t id : r.section_order) {
    w.begin_section(id);
    if (id == 1) {
      write_circom_field<Fr>(w);
      w.u32(static_cast<uint32_t>(cs.num_variables()));
      w.u32(r.n_pub_out);
      w.u32(r.n_pub_in);
      w.u32(r.n_prv_in);
      w.u64(r.n_labels);
      w.u32(static_cast<uint32_t>(cs.num_constraints()));
    } else if (id == 2) {
      for (std::size_t i = 0; i < cs.num_constraints(); ++i) {
        for (const r1cs::basic_csr_matrix<Fr>* m : {&cs.a(), &cs.b(), &cs.c()}) {
          w.u32(static_cast<uint32_t>(m->row_ptr[i + 1] - m->row_ptr[i]));
          for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; ++k) {
            w.u32(m->cols[k]);
            write_fr(w, m->coeffs[k]);
          }
        }
      }
    } else {
      for (uint64_t l : *r.wire_labels) w.u64(l);
    }
    w.end_section();
  }
  return std::move(w).finish();
}

template <class Fr>
status write_circom_r1cs_file(const basic_circom_r1cs<Fr>& r, const std::filesystem::path& path) {
  auto bytes = write_circom_r1cs(r);
  if (!bytes.ok()) return bytes.error().with_context("writing " + path.string());
  return write_output_file(path, *bytes);
}

#define PP_INSTANTIATE(Fr)                                                                                          \
  template basic_circom_r1cs<Fr> make_circom_r1cs<Fr>(r1cs::basic_constraint_system<Fr>);                          \
  template result<basic_circom_r1cs<Fr>> read_circom_r1cs<Fr>(std::span<const uint8_t>, const circom_limits&);     \
  template result<basic_circom_r1cs<Fr>> read_circom_r1cs_file<Fr>(const std::filesystem::path&,                  \
                                                                   const circom_limits&);                          \
  template result<std::vector<uint8_t>> write_circom_r1cs<Fr>(const basic_circom_r1cs<Fr>&);                      \
  template status write_circom_r1cs_file<Fr>(const basic_circom_r1cs<Fr>&, const std::filesystem::path&);
PP_INSTANTIATE(ff::fr)
PP_INSTANTIATE(ff::bn254::fr)
#undef PP_INSTANTIATE

}  // namespace pp::formats

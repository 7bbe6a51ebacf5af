// snarkjs .zkey: section-table scan, curve identification by q and r, bulk copy of the Montgomery
// LE point sections (they are byte-identical to ec::affine storage) followed by per-point checks
// (in parallel; an error names the first bad point, as a serial scan would).
#include "formats/snarkjs_zkey.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "ec/ec.hpp"
#include "formats/binfile.hpp"
#include "formats/first_touch.hpp"
#include "formats/mapped_file.hpp"

namespace pp::formats {

namespace {

using ec::g1_affine;
using ec::g2_affine;

constexpr uint64_t g1_size = 96;
constexpr uint64_t g2_size = 192;
constexpr uint64_t coef_size = 12 + 32;
constexpr uint64_t n8q_bls = 48;
constexpr uint64_t n8r_bls = 32;
constexpr uint64_t header_size = 4 + n8q_bls + 4 + n8r_bls + 12 + 3 * g1_size + 3 * g2_size;  // 964
static_assert(sizeof(g1_affine) == g1_size && sizeof(g2_affine) == g2_size);

// BN254's base field q, little-endian limbs: snarkjs's other curve ("bn128").
constexpr uint64_t bn254_q[4] = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029};

enum sec : uint32_t { s_header = 1, s_groth = 2, s_ic = 3, s_coefs = 4, s_a = 5, s_b1 = 6, s_b2 = 7, s_c = 8, s_h = 9,
                      s_contrib = 10 };

const char* section_name(uint32_t id) {
  switch (id) {
    case s_header: return "section 1 (header)";
    case s_groth: return "section 2 (Groth16 header)";
    case s_ic: return "section 3 (IC)";
    case s_coefs: return "section 4 (coefficients)";
    case s_a: return "section 5 (A)";
    case s_b1: return "section 6 (B1)";
    case s_b2: return "section 7 (B2)";
    case s_c: return "section 8 (C/L)";
    case s_h: return "section 9 (H)";
    case s_contrib: return "section 10 (contributions)";
    default: return "section ?";
  }
}

std::string at(uint64_t offset) { return " at offset " + std::to_string(offset); }

result<const section_entry*> require_section(const binfile_sections& t, uint32_t id) {
  PP_ASSIGN_OR_RETURN(const section_entry* s, t.find(id, section_name(id)));
  if (s == nullptr) return data_loss(std::string("missing ") + section_name(id));
  return s;
}

bool fp_in_range(const ff::fp& a) { return ff::limbs::cmp<6>(a.l, ff::fp_params::modulus) < 0; }
bool coords_in_range(const g1_affine& p) { return fp_in_range(p.x) && fp_in_range(p.y); }
bool coords_in_range(const g2_affine& p) {
  return fp_in_range(p.x.c0) && fp_in_range(p.x.c1) && fp_in_range(p.y.c0) && fp_in_range(p.y.c1);
}

// True when p passes `check` (the fast path: no strings are built).
template <class Curve>
bool point_ok(const ec::affine<Curve>& p, zkey_point_check check) {
  if (!coords_in_range(p)) return false;
  if (check == zkey_point_check::range_only) return true;
  if (!ec::is_on_curve(p)) return false;
  return check != zkey_point_check::subgroup || ec::is_in_subgroup(p);
}

// The lowest i with !point_ok(v[i]), or v.size(): a parallel scan (the checks are a few field
// multiplications per point, and this runs once per key read).
template <class Curve>
uint64_t first_bad_point(std::span<const ec::affine<Curve>> v, zkey_point_check check) {
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, v.size(), 4096), uint64_t{v.size()},
      [&](const tbb::blocked_range<uint64_t>& r, uint64_t found) {
        for (uint64_t i = r.begin(); i < r.end() && i < found; ++i) {
          if (!point_ok(v[i], check)) return i;
        }
        return found;
      },
      [](uint64_t a, uint64_t b) { return std::min(a, b); });
}

// `where` names the point ("section 5 (A) point 3"); offset is its first byte in the file.
template <class Curve>
status check_point(const ec::affine<Curve>& p, zkey_point_check check, const std::string& where, uint64_t offset) {
  if (!coords_in_range(p)) return invalid_argument(where + at(offset) + ": a coordinate is >= q");
  if (check == zkey_point_check::range_only) return ok_status();
  if (!ec::is_on_curve(p)) return invalid_argument(where + at(offset) + ": not on the " + Curve::name + " curve");
  if (check == zkey_point_check::subgroup && !ec::is_in_subgroup(p)) {
    return invalid_argument(where + at(offset) + ": not in the prime-order " + Curve::name + " subgroup");
  }
  return ok_status();
}

template <class Curve>
status read_single_point(byte_reader& rd, ec::affine<Curve>& out, zkey_point_check check, const char* what) {
  const uint64_t off = rd.offset();
  std::memcpy(&out, rd.bytes_unchecked(sizeof(out)), sizeof(out));
  return check_point(out, check, std::string(section_name(s_groth)) + " " + what, off);
}

// A whole point section: exact size, one memcpy, then the checks.
template <class Curve>
status read_point_section(std::span<const uint8_t> file, const binfile_sections& t, uint32_t id, uint64_t count,
                          const char* count_desc, zkey_point_check check, std::vector<ec::affine<Curve>>& out) {
  PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, id));
  constexpr uint64_t size = sizeof(ec::affine<Curve>);
  if (s->size != count * size) {
    return data_loss(std::string(section_name(id)) + at(s->offset) + " has " + std::to_string(s->size) +
                     " bytes, expected " + count_desc + " = " + std::to_string(count) + " points x " +
                     std::to_string(size) + " B = " + std::to_string(count * size));
  }
  resize_first_touched(out, count);
  if (count != 0) std::memcpy(out.data(), file.data() + s->offset, count * size);
  const uint64_t bad = first_bad_point<Curve>(out, check);
  if (bad == count) return ok_status();
  return check_point(out[bad], check, std::string(section_name(id)) + " point " + std::to_string(bad),
                     s->offset + bad * size);
}

status read_protocol(std::span<const uint8_t> file, const binfile_sections& t) {
  PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, s_header));
  byte_reader rd(file, *s, section_name(s_header));
  PP_ASSIGN_OR_RETURN(const uint32_t protocol, rd.u32("protocol id"));
  if (protocol != 1) {
    const std::string name = protocol == 2 ? "PLONK" : protocol == 10 ? "FFLONK" : "unknown";
    return invalid_argument("this .zkey is for protocol " + std::to_string(protocol) + " (" + name +
                            "), proofpipe needs a Groth16 zkey (protocol 1)");
  }
  return rd.expect_end();
}

struct groth_header {
  uint32_t n_vars = 0, n_public = 0, domain_size = 0;
};

status read_field_prime(byte_reader& rd, const char* name, uint64_t want_n8, const uint64_t* want, int want_n64,
                        bool is_q) {
  PP_ASSIGN_OR_RETURN(const uint32_t n8, rd.u32(std::string(name) + " size"));
  PP_RETURN_IF_ERROR(rd.require(n8, name));
  const uint64_t off = rd.offset();
  const uint8_t* p = rd.bytes_unchecked(n8);
  if (is_q && n8 == 32 && std::memcmp(p, bn254_q, 32) == 0) {
    return invalid_argument("this .zkey is for BN254 (bn128); proofpipe proves over BLS12-381 "
                            "(compile the circuit with circom -p bls12381 and use a bls12381 ptau)");
  }
  if (n8 != want_n8 || std::memcmp(p, want, 8 * want_n64) != 0) {
    return invalid_argument(std::string("this .zkey is for an unknown curve: its ") + name + at(off) + " (" +
                            std::to_string(n8) + " bytes) is not BLS12-381's; proofpipe proves over BLS12-381");
  }
  return ok_status();
}

status read_groth_header(std::span<const uint8_t> file, const binfile_sections& t, zkey_point_check check,
                         groth_header& h, groth16::verifying_key& vk) {
  PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, s_groth));
  byte_reader rd(file, *s, section_name(s_groth));
  PP_RETURN_IF_ERROR(read_field_prime(rd, "base field prime q", n8q_bls, ff::fp_params::modulus, 6, true));
  PP_RETURN_IF_ERROR(read_field_prime(rd, "scalar field prime r", n8r_bls, ff::fr_params::modulus, 4, false));
  PP_RETURN_IF_ERROR(rd.require(12 + 3 * g1_size + 3 * g2_size, "nVars, nPublic, domainSize and the vk points"));
  h.n_vars = rd.u32_unchecked();
  h.n_public = rd.u32_unchecked();
  h.domain_size = rd.u32_unchecked();
  if (uint64_t{h.n_public} + 1 > h.n_vars) {
    return invalid_argument(std::string(section_name(s_groth)) + ": nPublic " + std::to_string(h.n_public) +
                            " + 1 exceeds nVars " + std::to_string(h.n_vars));
  }
  if (!std::has_single_bit(h.domain_size)) {
    return invalid_argument(std::string(section_name(s_groth)) + ": domainSize " + std::to_string(h.domain_size) +
                            " is not a power of two");
  }
  PP_RETURN_IF_ERROR(read_single_point(rd, vk.alpha_g1, check, "alpha_1"));
  PP_RETURN_IF_ERROR(read_single_point(rd, vk.beta_g1, check, "beta_1"));
  PP_RETURN_IF_ERROR(read_single_point(rd, vk.beta_g2, check, "beta_2"));
  PP_RETURN_IF_ERROR(read_single_point(rd, vk.gamma_g2, check, "gamma_2"));
  PP_RETURN_IF_ERROR(read_single_point(rd, vk.delta_g1, check, "delta_1"));
  PP_RETURN_IF_ERROR(read_single_point(rd, vk.delta_g2, check, "delta_2"));
  return rd.expect_end();
}

// File value v R^2 mod r -> the fr holding v (whose limbs are v R): one Montgomery reduction.
ff::fr coefficient_from_file(const uint64_t (&stored)[4]) {
  uint64_t v_r[4];
  ff::fr::from_montgomery(stored).to_canonical(v_r);
  return ff::fr::from_montgomery(v_r);
}

// The inverse: limbs v R read as an integer, put into Montgomery form, give v R^2.
void coefficient_to_file(const ff::fr& v, uint64_t (&out)[4]) {
  const ff::fr t = ff::fr::from_canonical_unchecked(v.l);
  std::memcpy(out, t.l, 32);
}

status read_coefficients(std::span<const uint8_t> file, const binfile_sections& t, const groth_header& h,
                         std::vector<zkey_coefficient>& out) {
  PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, s_coefs));
  byte_reader rd(file, *s, section_name(s_coefs));
  PP_ASSIGN_OR_RETURN(const uint32_t n, rd.u32("nCoef"));
  if (rd.remaining() != uint64_t{n} * coef_size) {
    return data_loss(std::string(section_name(s_coefs)) + ": nCoef " + std::to_string(n) + " needs " +
                     std::to_string(uint64_t{n} * coef_size) + " bytes of entries, the section has " +
                     std::to_string(rd.remaining()));
  }
  resize_first_touched(out, n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t off = rd.offset();
    zkey_coefficient& c = out[i];
    c.matrix = rd.u32_unchecked();
    c.constraint = rd.u32_unchecked();
    c.signal = rd.u32_unchecked();
    uint64_t stored[4];
    std::memcpy(stored, rd.bytes_unchecked(32), 32);
    // Built only on an error: one string per entry was a visible share of reading a key.
    const auto where = [&] { return std::string(section_name(s_coefs)) + " entry " + std::to_string(i) + at(off); };
    if (c.matrix > 1) return invalid_argument(where() + ": matrix " + std::to_string(c.matrix) + ", expected 0 (A) or 1 (B)");
    if (c.constraint >= h.domain_size) {
      return invalid_argument(where() + ": constraint " + std::to_string(c.constraint) + " >= domainSize " +
                              std::to_string(h.domain_size));
    }
    if (c.signal >= h.n_vars) {
      return invalid_argument(where() + ": signal " + std::to_string(c.signal) + " >= nVars " + std::to_string(h.n_vars));
    }
    if (ff::limbs::cmp<4>(stored, ff::fr_params::modulus) >= 0) return invalid_argument(where() + ": value >= r");
    c.value = coefficient_from_file(stored);
  }
  return ok_status();
}

}  // namespace

result<snarkjs_zkey> read_snarkjs_zkey(std::span<const uint8_t> bytes, const zkey_read_options& options) {
  static constexpr uint32_t versions[] = {1};
  PP_ASSIGN_OR_RETURN(const binfile_sections t, read_binfile_sections(bytes, "zkey", versions, ".zkey"));
  PP_RETURN_IF_ERROR(read_protocol(bytes, t));
  snarkjs_zkey z;
  groth16::proving_key& pk = z.pk;
  groth_header h;
  PP_RETURN_IF_ERROR(read_groth_header(bytes, t, options.check, h, pk.vk));
  pk.basis = groth16::h_basis::odd_coset_lagrange;
  pk.n_vars = h.n_vars;
  pk.domain_size = h.domain_size;
  const uint64_t n_aux = uint64_t{h.n_vars} - h.n_public - 1;
  PP_RETURN_IF_ERROR(read_point_section(bytes, t, s_ic, uint64_t{h.n_public} + 1, "nPublic + 1", options.check, pk.vk.ic));
  PP_RETURN_IF_ERROR(read_coefficients(bytes, t, h, z.coefficients));
  PP_RETURN_IF_ERROR(read_point_section(bytes, t, s_a, h.n_vars, "nVars", options.check, pk.a));
  PP_RETURN_IF_ERROR(read_point_section(bytes, t, s_b1, h.n_vars, "nVars", options.check, pk.b_g1));
  PP_RETURN_IF_ERROR(read_point_section(bytes, t, s_b2, h.n_vars, "nVars", options.check, pk.b_g2));
  PP_RETURN_IF_ERROR(read_point_section(bytes, t, s_c, n_aux, "nVars - nPublic - 1", options.check, pk.l));
  PP_RETURN_IF_ERROR(read_point_section(bytes, t, s_h, h.domain_size, "domainSize", options.check, pk.h));
  PP_ASSIGN_OR_RETURN(const section_entry* contrib, t.find(s_contrib, section_name(s_contrib)));
  if (contrib != nullptr) {
    const uint8_t* p = bytes.data() + contrib->offset;
    z.contributions.assign(p, p + contrib->size);
  }
  return z;
}

result<snarkjs_zkey> read_snarkjs_zkey_file(const std::filesystem::path& path, const zkey_read_options& options) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<snarkjs_zkey> {
    populate_for_read(bytes);  // every section is read
    auto z = read_snarkjs_zkey(bytes, options);
    if (!z.ok()) return std::move(z).take_status().with_context("reading " + path.string());
    return z;
  });
}

result<uint32_t> read_snarkjs_zkey_num_variables_file(const std::filesystem::path& path) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<uint32_t> {
    static constexpr uint32_t versions[] = {1};
    auto header = [&]() -> result<uint32_t> {
      PP_ASSIGN_OR_RETURN(const binfile_sections t, read_binfile_sections(bytes, "zkey", versions, ".zkey"));
      PP_RETURN_IF_ERROR(read_protocol(bytes, t));
      PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, s_groth));
      byte_reader rd(bytes, *s, section_name(s_groth));
      PP_RETURN_IF_ERROR(read_field_prime(rd, "base field prime q", n8q_bls, ff::fp_params::modulus, 6, true));
      PP_RETURN_IF_ERROR(read_field_prime(rd, "scalar field prime r", n8r_bls, ff::fr_params::modulus, 4, false));
      return rd.u32("nVars");
    };
    auto n = header();
    if (!n.ok()) return std::move(n).take_status().with_context("reading " + path.string());
    return n;
  });
}

namespace {

status check_writable(const snarkjs_zkey& z) {
  const groth16::proving_key& pk = z.pk;
  auto bad = [](const std::string& m) { return invalid_argument("cannot write a snarkjs zkey: " + m); };
  if (pk.basis != groth16::h_basis::odd_coset_lagrange) return bad("the key's H query is in the monomial (bellperson) basis");
  if (pk.a_density || pk.b_density) return bad("the A/B queries are filtered (density bitmaps set); snarkjs needs one point per variable");
  if (pk.vk.ic.empty()) return bad("IC is empty (it needs nPublic + 1 points)");
  const uint64_t n_public = pk.vk.ic.size() - 1;
  if (n_public + 1 > pk.n_vars) return bad("IC has " + std::to_string(pk.vk.ic.size()) + " points, more than n_vars " + std::to_string(pk.n_vars));
  if (!std::has_single_bit(pk.domain_size)) return bad("domain_size " + std::to_string(pk.domain_size) + " is not a power of two");
  auto count = [&](const char* what, uint64_t got, uint64_t want) {
    return got == want ? ok_status() : bad(std::string(what) + " has " + std::to_string(got) + " points, expected " + std::to_string(want));
  };
  PP_RETURN_IF_ERROR(count("a", pk.a.size(), pk.n_vars));
  PP_RETURN_IF_ERROR(count("b_g1", pk.b_g1.size(), pk.n_vars));
  PP_RETURN_IF_ERROR(count("b_g2", pk.b_g2.size(), pk.n_vars));
  PP_RETURN_IF_ERROR(count("l", pk.l.size(), pk.n_vars - n_public - 1));
  PP_RETURN_IF_ERROR(count("h", pk.h.size(), pk.domain_size));
  if (z.coefficients.size() > UINT32_MAX) return bad("more than 2^32 - 1 coefficients");
  for (std::size_t i = 0; i < z.coefficients.size(); ++i) {
    const zkey_coefficient& c = z.coefficients[i];
    if (c.matrix > 1 || c.constraint >= pk.domain_size || c.signal >= pk.n_vars) {
      return bad("coefficient " + std::to_string(i) + " (matrix " + std::to_string(c.matrix) + ", constraint " +
                 std::to_string(c.constraint) + ", signal " + std::to_string(c.signal) + ") is out of range");
    }
  }
  return ok_status();
}

template <class T>
void put_points(binfile_writer& w, const std::vector<T>& v) {
  if (!v.empty()) w.bytes(v.data(), v.size() * sizeof(T));
}

}  // namespace

result<std::vector<uint8_t>> write_snarkjs_zkey(const snarkjs_zkey& z) {
  PP_RETURN_IF_ERROR(check_writable(z));
  const groth16::proving_key& pk = z.pk;
  binfile_writer w("zkey", 1, 10);
  w.reserve(12 + 10 * 12 + header_size + 4 + z.coefficients.size() * coef_size +
            (pk.vk.ic.size() + 2 * pk.a.size() + pk.l.size() + pk.h.size()) * g1_size + pk.b_g2.size() * g2_size +
            std::max<std::size_t>(z.contributions.size(), 68));
  w.begin_section(s_header);
  w.u32(1);  // Groth16
  w.end_section();

  w.begin_section(s_groth);
  w.u32(n8q_bls);
  w.bytes(ff::fp_params::modulus, n8q_bls);
  w.u32(n8r_bls);
  w.bytes(ff::fr_params::modulus, n8r_bls);
  w.u32(pk.n_vars);
  w.u32(pk.n_public());
  w.u32(pk.domain_size);
  w.bytes(&pk.vk.alpha_g1, g1_size);
  w.bytes(&pk.vk.beta_g1, g1_size);
  w.bytes(&pk.vk.beta_g2, g2_size);
  w.bytes(&pk.vk.gamma_g2, g2_size);
  w.bytes(&pk.vk.delta_g1, g1_size);
  w.bytes(&pk.vk.delta_g2, g2_size);
  w.end_section();

  w.begin_section(s_ic);
  put_points(w, pk.vk.ic);
  w.end_section();

  w.begin_section(s_coefs);
  w.u32(static_cast<uint32_t>(z.coefficients.size()));
  for (const zkey_coefficient& c : z.coefficients) {
    w.u32(c.matrix);
    w.u32(c.constraint);
    w.u32(c.signal);
    uint64_t stored[4];
    coefficient_to_file(c.value, stored);
    w.bytes(stored, 32);
  }
  w.end_section();

  const std::pair<uint32_t, const std::vector<g1_affine>*> g1_sections[] = {{s_a, &pk.a}, {s_b1, &pk.b_g1}};
  for (const auto& [id, v] : g1_sections) {
    w.begin_section(id);
    put_points(w, *v);
    w.end_section();
  }
  w.begin_section(s_b2);
  put_points(w, pk.b_g2);
  w.end_section();
  w.begin_section(s_c);
  put_points(w, pk.l);
  w.end_section();
  w.begin_section(s_h);
  put_points(w, pk.h);
  w.end_section();

  w.begin_section(s_contrib);
  if (!z.contributions.empty()) {
    w.bytes(z.contributions.data(), z.contributions.size());
  } else {
    const uint8_t zero_hash[64] = {};
    w.bytes(zero_hash, 64);  // circuit hash: unknown here, and only `zkey verify` checks it
    w.u32(0);                // no contributions
  }
  w.end_section();
  return std::move(w).finish();
}

status write_snarkjs_zkey_file(const snarkjs_zkey& zkey, const std::filesystem::path& path) {
  PP_ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, write_snarkjs_zkey(zkey));
  return write_output_file(path, bytes);
}

}  // namespace pp::formats

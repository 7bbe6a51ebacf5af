// snarkjs .zkey: section-table scan, curve identification by q and r, bulk copy of the Montgomery
// LE point sections (they are byte-identical to ec::affine storage, ec/lem_encoding.hpp) followed by
// per-point checks (in parallel; an error names the first bad point, as a serial scan would).
// Written once over the curve family, instantiated for BLS12-381 and BN254 at the end.
#include "formats/snarkjs_zkey.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "ec/ec.hpp"
#include "ec/lem_encoding.hpp"
#include "formats/binfile.hpp"
#include "formats/first_touch.hpp"
#include "formats/mapped_file.hpp"

namespace pp::formats {

namespace {

// Byte sizes of a family's zkey fields: n8q, n8r and the points (LEM: x || y, Montgomery LE).
template <class Family>
struct zkey_sizes {
  static constexpr uint64_t n8q = Family::fp::n_bytes;
  static constexpr uint64_t n8r = Family::fr::n_bytes;
  static constexpr uint64_t g1 = ec::lem_size<typename Family::g1_curve>;
  static constexpr uint64_t g2 = ec::lem_size<typename Family::g2_curve>;
  static constexpr uint64_t coef = 12 + n8r;
  static constexpr uint64_t header = 4 + n8q + 4 + n8r + 12 + 3 * g1 + 3 * g2;  // section 2
  static_assert(sizeof(ec::affine<typename Family::g1_curve>) == g1 &&
                sizeof(ec::affine<typename Family::g2_curve>) == g2);
};
static_assert(zkey_sizes<ec::bls12_381::family>::header == 964);
static_assert(zkey_sizes<ec::bn254::family>::g1 == 64 && zkey_sizes<ec::bn254::family>::g2 == 128);

// q and r of each curve a zkey can be for, as the file stores them (n8 LE bytes).
struct curve_primes {
  ec::curve_id curve;
  uint32_t n8q;
  const uint64_t* q;
  uint32_t n8r;
  const uint64_t* r;
};
const curve_primes known_curves[] = {
    {ec::curve_id::bls12_381, 48, ff::fp_params::modulus, 32, ff::fr_params::modulus},
    {ec::curve_id::bn254, 32, ff::bn254::fp_params::modulus, 32, ff::bn254::fr_params::modulus},
};

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

// True when p passes `check` (the fast path: no strings are built).
template <class Curve>
bool point_ok(const ec::affine<Curve>& p, zkey_point_check check) {
  if (!ec::coordinates_in_range(p)) return false;
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
  if (!ec::coordinates_in_range(p)) return invalid_argument(where + at(offset) + ": a coordinate is >= q");
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

// q then r: the curve they are, which must be `expected` when given. A key for the other supported
// curve is named with how to make one for the expected curve.
result<ec::curve_id> read_curve_primes(byte_reader& rd, std::optional<ec::curve_id> expected) {
  PP_ASSIGN_OR_RETURN(const uint32_t n8q, rd.u32("base field prime q size"));
  PP_RETURN_IF_ERROR(rd.require(n8q, "base field prime q"));
  const uint64_t q_at = rd.offset();
  const uint8_t* q = rd.bytes_unchecked(n8q);
  const curve_primes* c = nullptr;
  for (const curve_primes& k : known_curves) {
    if (n8q == k.n8q && std::memcmp(q, k.q, n8q) == 0) c = &k;
  }
  if (c == nullptr) {
    return invalid_argument("this .zkey is for an unknown curve: its base field prime q" + at(q_at) + " (" +
                            std::to_string(n8q) + " bytes) is neither BLS12-381's nor BN254's; proofpipe proves "
                            "over BLS12-381 and BN254");
  }
  if (expected && c->curve != *expected) {
    const std::string want(ec::snarkjs_curve_name(*expected));
    return invalid_argument(std::string("this .zkey is for ") + ec::curve_name(c->curve) + " (" +
                            std::string(ec::snarkjs_curve_name(c->curve)) + "), expected a " +
                            ec::curve_name(*expected) + " key (compile the circuit with circom -p " + want +
                            " and use a " + want + " ptau)");
  }
  PP_ASSIGN_OR_RETURN(const uint32_t n8r, rd.u32("scalar field prime r size"));
  PP_RETURN_IF_ERROR(rd.require(n8r, "scalar field prime r"));
  const uint64_t r_at = rd.offset();
  const uint8_t* r = rd.bytes_unchecked(n8r);
  if (n8r != c->n8r || std::memcmp(r, c->r, n8r) != 0) {
    return invalid_argument("this .zkey is for an unknown curve: its scalar field prime r" + at(r_at) + " (" +
                            std::to_string(n8r) + " bytes) is not " + ec::curve_name(c->curve) +
                            "'s; proofpipe proves over BLS12-381 and BN254");
  }
  return c->curve;
}

template <class Family>
status read_groth_header(std::span<const uint8_t> file, const binfile_sections& t, zkey_point_check check,
                         groth_header& h, groth16::basic_verifying_key<Family>& vk) {
  using sz = zkey_sizes<Family>;
  PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, s_groth));
  byte_reader rd(file, *s, section_name(s_groth));
  PP_RETURN_IF_ERROR(read_curve_primes(rd, ec::curve_id_of<Family>).take_status());
  PP_RETURN_IF_ERROR(rd.require(12 + 3 * sz::g1 + 3 * sz::g2, "nVars, nPublic, domainSize and the vk points"));
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

// File value v R^2 mod r -> the Fr holding v (whose limbs are v R): one Montgomery reduction.
template <class Fr>
Fr coefficient_from_file(const uint64_t (&stored)[4]) {
  uint64_t v_r[4];
  Fr::from_montgomery(stored).to_canonical(v_r);
  return Fr::from_montgomery(v_r);
}

// The inverse: limbs v R read as an integer, put into Montgomery form, give v R^2.
template <class Fr>
void coefficient_to_file(const Fr& v, uint64_t (&out)[4]) {
  const Fr t = Fr::from_canonical_unchecked(v.l);
  std::memcpy(out, t.l, 32);
}

template <class Fr>
status read_coefficients(std::span<const uint8_t> file, const binfile_sections& t, const groth_header& h,
                         std::vector<basic_zkey_coefficient<Fr>>& out) {
  static_assert(Fr::n_bytes == 32, "both curves' r are 4 limbs");
  constexpr uint64_t coef_size = 12 + 32;
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
    basic_zkey_coefficient<Fr>& c = out[i];
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
    if (ff::limbs::cmp<4>(stored, Fr::params::modulus) >= 0) return invalid_argument(where() + ": value >= r");
    c.value = coefficient_from_file<Fr>(stored);
  }
  return ok_status();
}

// Section 2's table entry after the section table and protocol checks: what the header-only
// readers start from.
result<section_entry> groth_header_section(std::span<const uint8_t> bytes) {
  static constexpr uint32_t versions[] = {1};
  PP_ASSIGN_OR_RETURN(const binfile_sections t, read_binfile_sections(bytes, "zkey", versions, ".zkey"));
  PP_RETURN_IF_ERROR(read_protocol(bytes, t));
  PP_ASSIGN_OR_RETURN(const section_entry* s, require_section(t, s_groth));
  return *s;
}

template <class Family>
status check_writable(const basic_snarkjs_zkey<Family>& z) {
  const groth16::basic_proving_key<Family>& pk = z.pk;
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
    const auto& c = z.coefficients[i];
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

template <class Family>
result<basic_snarkjs_zkey<Family>> read_snarkjs_zkey(std::span<const uint8_t> bytes, const zkey_read_options& options) {
  static constexpr uint32_t versions[] = {1};
  PP_ASSIGN_OR_RETURN(const binfile_sections t, read_binfile_sections(bytes, "zkey", versions, ".zkey"));
  PP_RETURN_IF_ERROR(read_protocol(bytes, t));
  basic_snarkjs_zkey<Family> z;
  groth16::basic_proving_key<Family>& pk = z.pk;
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

template <class Family>
result<basic_snarkjs_zkey<Family>> read_snarkjs_zkey_file(const std::filesystem::path& path,
                                                          const zkey_read_options& options) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<basic_snarkjs_zkey<Family>> {
    populate_for_read(bytes);  // every section is read
    auto z = read_snarkjs_zkey<Family>(bytes, options);
    if (!z.ok()) return std::move(z).take_status().with_context("reading " + path.string());
    return z;
  });
}

result<uint32_t> read_snarkjs_zkey_num_variables_file(const std::filesystem::path& path) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<uint32_t> {
    auto header = [&]() -> result<uint32_t> {
      PP_ASSIGN_OR_RETURN(const section_entry s, groth_header_section(bytes));
      byte_reader rd(bytes, s, section_name(s_groth));
      PP_RETURN_IF_ERROR(read_curve_primes(rd, std::nullopt).take_status());
      return rd.u32("nVars");
    };
    auto n = header();
    if (!n.ok()) return std::move(n).take_status().with_context("reading " + path.string());
    return n;
  });
}

result<ec::curve_id> read_snarkjs_zkey_curve(std::span<const uint8_t> bytes) {
  PP_ASSIGN_OR_RETURN(const section_entry s, groth_header_section(bytes));
  byte_reader rd(bytes, s, section_name(s_groth));
  return read_curve_primes(rd, std::nullopt);
}

result<ec::curve_id> read_snarkjs_zkey_curve_file(const std::filesystem::path& path) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<ec::curve_id> {
    auto c = read_snarkjs_zkey_curve(bytes);
    if (!c.ok()) return std::move(c).take_status().with_context("reading " + path.string());
    return c;
  });
}

template <class Family>
result<std::vector<uint8_t>> write_snarkjs_zkey(const basic_snarkjs_zkey<Family>& z) {
  using sz = zkey_sizes<Family>;
  PP_RETURN_IF_ERROR(check_writable(z));
  const groth16::basic_proving_key<Family>& pk = z.pk;
  binfile_writer w("zkey", 1, 10);
  w.reserve(12 + 10 * 12 + sz::header + 4 + z.coefficients.size() * sz::coef +
            (pk.vk.ic.size() + 2 * pk.a.size() + pk.l.size() + pk.h.size()) * sz::g1 + pk.b_g2.size() * sz::g2 +
            std::max<std::size_t>(z.contributions.size(), 68));
  w.begin_section(s_header);
  w.u32(1);  // Groth16
  w.end_section();

  w.begin_section(s_groth);
  w.u32(sz::n8q);
  w.bytes(Family::fp::params::modulus, sz::n8q);
  w.u32(sz::n8r);
  w.bytes(Family::fr::params::modulus, sz::n8r);
  w.u32(pk.n_vars);
  w.u32(pk.n_public());
  w.u32(pk.domain_size);
  w.bytes(&pk.vk.alpha_g1, sz::g1);
  w.bytes(&pk.vk.beta_g1, sz::g1);
  w.bytes(&pk.vk.beta_g2, sz::g2);
  w.bytes(&pk.vk.gamma_g2, sz::g2);
  w.bytes(&pk.vk.delta_g1, sz::g1);
  w.bytes(&pk.vk.delta_g2, sz::g2);
  w.end_section();

  w.begin_section(s_ic);
  put_points(w, pk.vk.ic);
  w.end_section();

  w.begin_section(s_coefs);
  w.u32(static_cast<uint32_t>(z.coefficients.size()));
  for (const auto& c : z.coefficients) {
    w.u32(c.matrix);
    w.u32(c.constraint);
    w.u32(c.signal);
    uint64_t stored[4];
    coefficient_to_file(c.value, stored);
    w.bytes(stored, 32);
  }
  w.end_section();

  using g1_vector = std::vector<typename groth16::basic_proving_key<Family>::g1_affine>;
  const std::pair<uint32_t, const g1_vector*> g1_sections[] = {{s_a, &pk.a}, {s_b1, &pk.b_g1}};
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

template <class Family>
status write_snarkjs_zkey_file(const basic_snarkjs_zkey<Family>& zkey, const std::filesystem::path& path) {
  PP_ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, write_snarkjs_zkey(zkey));
  return write_output_file(path, bytes);
}

#define PP_INSTANTIATE(Family)                                                                               \
  template result<basic_snarkjs_zkey<Family>> read_snarkjs_zkey<Family>(std::span<const uint8_t>,           \
                                                                        const zkey_read_options&);          \
  template result<basic_snarkjs_zkey<Family>> read_snarkjs_zkey_file<Family>(const std::filesystem::path&,  \
                                                                             const zkey_read_options&);     \
  template result<std::vector<uint8_t>> write_snarkjs_zkey<Family>(const basic_snarkjs_zkey<Family>&);      \
  template status write_snarkjs_zkey_file<Family>(const basic_snarkjs_zkey<Family>&, const std::filesystem::path&);
PP_INSTANTIATE(ec::bls12_381::family)
PP_INSTANTIATE(ec::bn254::family)
#undef PP_INSTANTIATE

}  // namespace pp::formats

// Key <-> circuit glue: zkey section 4 to and from a constraint system, and bellperson
// density bitmaps from the circuit.
#include "formats/key_circuit.hpp"

#include <string>

#include "core/status_macros.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/first_touch.hpp"
#include "groth16/prover.hpp"
#include "r1cs/density.hpp"

namespace pp::formats {

namespace {

// Rows [0, m) of one matrix, entries in file order within a row (counting sort by row).
template <class Fr>
r1cs::basic_csr_matrix<Fr> matrix_from(const std::vector<basic_zkey_coefficient<Fr>>& co, uint32_t matrix, uint64_t m) {
  r1cs::basic_csr_matrix<Fr> out;
  // First touched in parallel with huge-page advice, as the key's points (formats/first_touch.hpp).
  resize_first_touched(out.row_ptr, m + 1);
  for (const auto& c : co) {
    if (c.matrix == matrix && c.constraint < m) ++out.row_ptr[c.constraint + 1];
  }
  for (uint64_t r = 0; r < m; ++r) out.row_ptr[r + 1] += out.row_ptr[r];
  resize_first_touched(out.cols, out.row_ptr[m]);
  resize_first_touched(out.coeffs, out.row_ptr[m]);
  std::vector<uint64_t> next(out.row_ptr.begin(), out.row_ptr.end() - 1);
  for (const auto& c : co) {
    if (c.matrix != matrix || c.constraint >= m) continue;
    const uint64_t at = next[c.constraint]++;
    out.cols[at] = c.signal;
    out.coeffs[at] = c.value;
  }
  return out;
}

}  // namespace

template <class Family>
result<r1cs::basic_constraint_system<typename Family::fr>> circuit_from_zkey(const basic_snarkjs_zkey<Family>& z) {
  using fr = typename Family::fr;
  const groth16::basic_proving_key<Family>& pk = z.pk;
  const uint64_t np = pk.n_public();
  if (pk.n_vars < np + 1) return invalid_argument("zkey has fewer variables than public inputs");
  uint64_t max_row = 0;
  for (const auto& c : z.coefficients) {
    if (c.matrix > 1 || c.signal >= pk.n_vars || c.constraint >= pk.domain_size) {
      return invalid_argument("zkey coefficient (matrix " + std::to_string(c.matrix) + ", constraint " +
                              std::to_string(c.constraint) + ", signal " + std::to_string(c.signal) +
                              ") is out of range");
    }
    if (c.constraint > max_row) max_row = c.constraint;
  }
  if (z.coefficients.empty() || max_row < np) {
    return invalid_argument("zkey has no input rows A[m + s][s] = 1 in its coefficients section");
  }
  const uint64_t m = max_row - np;  // the input rows are the last n_public + 1 rows
  std::vector<bool> seen(np + 1, false);
  for (const auto& c : z.coefficients) {
    if (c.constraint < m) continue;
    const uint64_t s = c.constraint - m;
    if (c.matrix != 0 || c.signal != s || !c.value.is_one()) {
      return invalid_argument("zkey row " + std::to_string(c.constraint) + " should be the input row of signal " +
                              std::to_string(s) + " (A = 1 on that signal only)");
    }
    seen[s] = true;
  }
  for (uint64_t s = 0; s <= np; ++s) {
    if (!seen[s]) return invalid_argument("zkey lacks the input row of signal " + std::to_string(s));
  }
  r1cs::basic_csr_matrix<fr> c;
  c.row_ptr.assign(m + 1, 0);
  return r1cs::basic_constraint_system<fr>::make(np, pk.n_vars - 1 - np, matrix_from(z.coefficients, 0, m),
                                       matrix_from(z.coefficients, 1, m), std::move(c));
}

template <class Fr>
std::vector<basic_zkey_coefficient<Fr>> zkey_coefficients(const r1cs::basic_constraint_system<Fr>& cs) {
  std::vector<basic_zkey_coefficient<Fr>> out;
  out.reserve(cs.a().nnz() + cs.b().nnz() + cs.num_public() + 1);
  const uint64_t m = cs.num_constraints();
  for (uint64_t r = 0; r < m; ++r) {
    for (uint32_t matrix = 0; matrix < 2; ++matrix) {
      const r1cs::basic_csr_matrix<Fr>& mat = matrix == 0 ? cs.a() : cs.b();
      const auto cols = mat.row_cols(r);
      const auto coeffs = mat.row_coeffs(r);
      for (std::size_t k = 0; k < cols.size(); ++k) {
        out.push_back({matrix, static_cast<uint32_t>(r), cols[k], coeffs[k]});
      }
    }
  }
  for (uint64_t s = 0; s <= cs.num_public(); ++s) {
    out.push_back({0, static_cast<uint32_t>(m + s), static_cast<uint32_t>(s), Fr::one()});
  }
  return out;
}

template result<r1cs::constraint_system> circuit_from_zkey(const snarkjs_zkey&);
template result<r1cs::bn254::constraint_system> circuit_from_zkey(const bn254::snarkjs_zkey&);
template std::vector<zkey_coefficient> zkey_coefficients(const r1cs::constraint_system&);
template std::vector<bn254::zkey_coefficient> zkey_coefficients(const r1cs::bn254::constraint_system&);

status fill_bellperson_density(groth16::proving_key& pk, const r1cs::constraint_system& cs) {
  if (pk.n_vars != cs.num_variables()) {
    return invalid_argument("the parameters are for " + std::to_string(pk.n_vars) + " variables, the circuit has " +
                            std::to_string(cs.num_variables()) + ": are they for another circuit?");
  }
  const r1cs::column_density cd = r1cs::compute_density(cs);
  // The same layout (bit i in word i / 64 at i % 64, no bit past the size set): the words copy over,
  // where a bit-by-bit copy took a noticeable part of a 2^27 key's load.
  auto to_bits = [](const r1cs::bitmap& b) { return groth16::density_bitmap{b.words(), b.size()}; };
  groth16::density_bitmap ad = to_bits(cd.a);
  for (uint64_t i = 0; i <= cs.num_public(); ++i) ad.set(i);
  groth16::density_bitmap bd = to_bits(cd.b);
  if (ad.count() != pk.a.size() || bd.count() != pk.b_g1.size()) {
    return invalid_argument("the parameters have " + std::to_string(pk.a.size()) + " A and " +
                            std::to_string(pk.b_g1.size()) + " B points, the circuit has " +
                            std::to_string(ad.count()) + " and " + std::to_string(bd.count()) +
                            " variables with non-zero A and B columns: are they for another circuit?");
  }
  pk.a_density = std::move(ad);
  pk.b_density = std::move(bd);
  return ok_status();
}

result<key_and_circuit> read_key_files(const key_files& f, const zkey_read_options& zkey,
                                       const bellperson_read_options& params) {
  key_and_circuit out;
  if (f.bellperson) {
    if (f.r1cs.empty()) {
      return invalid_argument(f.key.string() + ": bellperson parameters need the circuit's .r1cs (they carry no matrices)");
    }
    PP_ASSIGN_OR_RETURN(out.pk, read_bellperson_params_file(f.key, params));
  } else {
    PP_ASSIGN_OR_RETURN(snarkjs_zkey z, read_snarkjs_zkey_file(f.key, zkey));
    if (f.r1cs.empty()) {
      auto cs = circuit_from_zkey(z);
      if (!cs.ok()) return cs.error().with_context("circuit of " + f.key.string());
      out.cs = std::move(cs).value();
    }
    out.pk = std::move(z.pk);
  }
  if (!f.r1cs.empty()) {
    PP_ASSIGN_OR_RETURN(circom_r1cs r, read_circom_r1cs_file(f.r1cs));
    out.cs = std::move(r.cs);
    if (f.bellperson) {
      PP_RETURN_IF_ERROR(fill_bellperson_density(out.pk, out.cs).with_context(f.key.string() + " and " + f.r1cs.string()));
    }
  }
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(out.pk, out.cs).with_context(f.key.string()));
  return out;
}

}  // namespace pp::formats

// Host-side construction of the compact SpMV matrices (spmv_matrix.hpp).
#include "cuda/spmv_matrix.hpp"

#include <cstring>
#include <string>
#include <unordered_map>

namespace pp::cuda {
namespace {

using ff::fr;

uint64_t pad256(uint64_t b) { return (b + 255) / 256 * 256; }

struct fr_key {
  uint64_t l[4];
  bool operator==(const fr_key& o) const { return std::memcmp(l, o.l, sizeof(l)) == 0; }
};
struct fr_key_hash {
  std::size_t operator()(const fr_key& k) const {
    uint64_t h = k.l[0] * 0x9e3779b97f4a7c15ull ^ k.l[1];
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull ^ k.l[2];
    h = (h ^ (h >> 32)) * 0x94d049bb133111ebull ^ k.l[3];
    return std::size_t(h ^ (h >> 31));
  }
};

}  // namespace

uint64_t compact_csr::device_bytes() const {
  return pad256(row_ptr.size() * 4) + pad256(words.size() * 4) + pad256(table.size() * sizeof(fr));
}

uint64_t compact_r1cs::device_bytes() const { return m[0].device_bytes() + m[1].device_bytes() + m[2].device_bytes(); }

uint64_t compact_r1cs::plain_bytes(const r1cs::constraint_system& cs) {
  uint64_t b = 0;
  for (const auto* x : {&cs.a(), &cs.b(), &cs.c()}) b += x->row_ptr.size() * 8 + x->nnz() * (4 + sizeof(fr));
  return b;
}

result<compact_csr> make_compact_csr(const r1cs::csr_matrix& m) {
  compact_csr out;
  out.rows = m.rows();
  std::vector<uint32_t> row_ptr(m.rows() + 1, 0);
  out.words.reserve(m.nnz());
  const fr one = fr::one(), minus_one = -fr::one();
  std::unordered_map<fr_key, uint32_t, fr_key_hash> index;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      const uint32_t col = m.cols[k];
      if (col > spmv_col_mask) {
        return invalid_argument("compact SpMV matrix: column " + std::to_string(col) + " needs more than " +
                                std::to_string(spmv_col_bits) + " bits");
      }
      const fr& c = m.coeffs[k];
      if (c.is_zero()) continue;
      if (c == one) {
        out.words.push_back(col);
      } else if (c == minus_one) {
        out.words.push_back(col | (spmv_tag_minus_one << spmv_col_bits));
      } else {
        fr_key key;
        std::memcpy(key.l, c.l, sizeof(key.l));
        auto [it, inserted] = index.try_emplace(key, uint32_t(out.table.size()));
        if (inserted) out.table.push_back(c);
        out.words.push_back(col | (spmv_tag_table << spmv_col_bits));
        out.words.push_back(it->second);
      }
    }
    if (out.words.size() >= (uint64_t{1} << 32)) {
      return unimplemented("compact SpMV matrix: more than 2^32 words (32-bit row pointers) at row " +
                           std::to_string(r));
    }
    row_ptr[r + 1] = uint32_t(out.words.size());
  }
  out.words.shrink_to_fit();
  out.row_ptr = std::move(row_ptr);
  return out;
}

result<compact_r1cs> make_compact_r1cs(const r1cs::constraint_system& cs) {
  if (cs.num_variables() > spmv_max_variables) {
    return invalid_argument("compact SpMV matrices: " + std::to_string(cs.num_variables()) +
                            " variables, at most 2^30 supported");
  }
  compact_r1cs out;
  out.num_constraints = cs.num_constraints();
  out.num_variables = cs.num_variables();
  const r1cs::csr_matrix* ms[3] = {&cs.a(), &cs.b(), &cs.c()};
  for (int i = 0; i < 3; ++i) {
    auto c = make_compact_csr(*ms[i]);
    if (!c.ok()) return std::move(c).take_status();
    out.m[i] = std::move(c).value();
  }
  return out;
}

}  // namespace pp::cuda

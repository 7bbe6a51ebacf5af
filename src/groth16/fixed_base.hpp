// Fixed-base scalar multiplication for key generation: many [k_i] G for one base G. A windowed
// table T[j][d] = [d * 2^(w j)] G (affine) turns each product into ceil(255 / w) mixed additions
// (madd-2007-bl) and no doublings; results are batch-normalised to affine per chunk.
// Variable time: used only by the insecure development setup. Any curve (255 bits cover both Fr).
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_to_affine.hpp"
#include "ec/jacobian.hpp"

namespace pp::groth16 {

template <class Curve>
class fixed_base_table {
 public:
  // w = 8: 32 windows of 256 points (8192 affine points, 0.8 MiB for G1, 1.5 MiB for G2), built with
  // ~8k additions; every product then costs 32 mixed additions instead of ~255 dbl + ~128 add.
  static constexpr int window_bits = 8;
  static constexpr int num_windows = (255 + window_bits - 1) / window_bits;
  static constexpr int window_size = 1 << window_bits;

  explicit fixed_base_table(const ec::affine<Curve>& base)
      : base_(base), table_(std::size_t{num_windows} * window_size) {
    std::vector<ec::jacobian<Curve>> jac(table_.size());
    ec::jacobian<Curve> row_base = ec::to_jacobian(base);  // [2^(w j)] G
    for (int j = 0; j < num_windows; ++j) {
      ec::jacobian<Curve>* row = jac.data() + static_cast<std::size_t>(j) * window_size;
      row[0] = ec::jacobian<Curve>::infinity();
      for (int d = 1; d < window_size; ++d) row[d] = ec::add(row[d - 1], row_base);
      for (int k = 0; k < window_bits; ++k) row_base = ec::dbl(row_base);
    }
    ec::batch_to_affine(jac.data(), table_.data(), jac.size());
  }

  [[nodiscard]] const ec::affine<Curve>& base() const { return base_; }
  // The table, T[j][d] at j * window_size + d (T[j][0] is infinity): what a device copy uploads.
  [[nodiscard]] std::span<const ec::affine<Curve>> points() const { return table_; }

  // [k] G.
  using scalar = typename Curve::scalar_field;

  [[nodiscard]] ec::jacobian<Curve> mul(const scalar& k) const {
    uint64_t c[scalar::n64];
    k.to_canonical(c);
    ec::jacobian<Curve> acc = ec::jacobian<Curve>::infinity();
    for (int j = 0; j < num_windows; ++j) {
      const int bit = j * window_bits;
      const unsigned d = static_cast<unsigned>(c[bit / 64] >> (bit % 64)) & (window_size - 1);
      if (d != 0) acc = ec::add(acc, table_[static_cast<std::size_t>(j) * window_size + d]);
    }
    return acc;
  }

  // out[i] = [k_i] G in affine, in parallel over chunks (one batch inversion per chunk).
  void mul_batch(std::span<const scalar> k, std::span<ec::affine<Curve>> out) const {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, k.size(), 1024), [&](const tbb::blocked_range<std::size_t>& r) {
      std::vector<ec::jacobian<Curve>> tmp(r.size());
      for (std::size_t i = r.begin(); i < r.end(); ++i) tmp[i - r.begin()] = mul(k[i]);
      ec::batch_to_affine(tmp.data(), out.data() + r.begin(), tmp.size());
    });
  }

  [[nodiscard]] std::vector<ec::affine<Curve>> mul_batch(std::span<const scalar> k) const {
    std::vector<ec::affine<Curve>> out(k.size());
    mul_batch(k, out);
    return out;
  }

 private:
  ec::affine<Curve> base_;
  std::vector<ec::affine<Curve>> table_;
};

}  // namespace pp::groth16

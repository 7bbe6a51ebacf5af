// Batched fixed-base multiplication, the point-making half of key generation: out[i] = [k_i] B for
// one base B and many scalars. setup_insecure talks to this interface; host_fixed_base_multiplier
// runs fixed_base_table on the CPU, cuda::fixed_base_device (a higher layer) runs it on a GPU.
// Every implementation returns the same affine points (infinity as (0, 0) for k = 0). Per curve family;
// the unqualified names are BLS12-381's (the one the GPU implements).
#pragma once
#include <memory>
#include <span>
#include <string>

#include "core/status.hpp"
#include "ec/affine.hpp"
#include "ec/bn254_points.hpp"
#include "groth16/fixed_base.hpp"

namespace pp::groth16 {

template <class Family>
class basic_fixed_base_multiplier {
 public:
  using fr = typename Family::fr;
  using g1_affine = ec::affine<typename Family::g1_curve>;
  using g2_affine = ec::affine<typename Family::g2_curve>;

  virtual ~basic_fixed_base_multiplier() = default;
  // out[i] = [k[i]] base for i < k.size(); invalid_argument unless out.size() == k.size().
  [[nodiscard]] virtual status mul_g1(const g1_affine& base, std::span<const fr> k, std::span<g1_affine> out) = 0;
  [[nodiscard]] virtual status mul_g2(const g2_affine& base, std::span<const fr> k, std::span<g2_affine> out) = 0;
};

// On the host, in parallel (oneTBB). Keeps the table of the last base per group, so repeated calls
// with the generator build it once. Not thread-safe: one instance per caller.
template <class Family>
class basic_host_fixed_base_multiplier final : public basic_fixed_base_multiplier<Family> {
 public:
  using typename basic_fixed_base_multiplier<Family>::fr;
  using typename basic_fixed_base_multiplier<Family>::g1_affine;
  using typename basic_fixed_base_multiplier<Family>::g2_affine;

  status mul_g1(const g1_affine& base, std::span<const fr> k, std::span<g1_affine> out) override {
    return run(g1_, base, k, out);
  }
  status mul_g2(const g2_affine& base, std::span<const fr> k, std::span<g2_affine> out) override {
    return run(g2_, base, k, out);
  }

 private:
  template <class Curve>
  static status run(std::unique_ptr<fixed_base_table<Curve>>& table, const ec::affine<Curve>& base,
                    std::span<const fr> k, std::span<ec::affine<Curve>> out) {
    if (k.size() != out.size()) {
      return invalid_argument("fixed_base_multiplier: " + std::to_string(k.size()) + " scalars but room for " +
                              std::to_string(out.size()) + " points");
    }
    if (k.empty()) return ok_status();
    if (!table || !(table->base() == base)) table = std::make_unique<fixed_base_table<Curve>>(base);
    table->mul_batch(k, out);
    return ok_status();
  }

  std::unique_ptr<fixed_base_table<typename Family::g1_curve>> g1_;
  std::unique_ptr<fixed_base_table<typename Family::g2_curve>> g2_;
};

using fixed_base_multiplier = basic_fixed_base_multiplier<ec::bls12_381::family>;
using host_fixed_base_multiplier = basic_host_fixed_base_multiplier<ec::bls12_381::family>;

}  // namespace pp::groth16

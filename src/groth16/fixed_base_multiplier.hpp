// Batched fixed-base multiplication, the point-making half of key generation: out[i] = [k_i] B for
// one base B and many scalars. setup_insecure talks to this interface; host_fixed_base_multiplier
// runs fixed_base_table on the CPU, cuda::fixed_base_device (a higher layer) runs it on a GPU.
// Every implementation returns the same affine points (infinity as (0, 0) for k = 0).
#pragma once
#include <memory>
#include <span>
#include <string>

#include "core/status.hpp"
#include "ec/affine.hpp"
#include "ff/fr.hpp"
#include "groth16/fixed_base.hpp"

namespace pp::groth16 {

class fixed_base_multiplier {
 public:
  virtual ~fixed_base_multiplier() = default;
  // out[i] = [k[i]] base for i < k.size(); invalid_argument unless out.size() == k.size().
  [[nodiscard]] virtual status mul_g1(const ec::g1_affine& base, std::span<const ff::fr> k,
                                      std::span<ec::g1_affine> out) = 0;
  [[nodiscard]] virtual status mul_g2(const ec::g2_affine& base, std::span<const ff::fr> k,
                                      std::span<ec::g2_affine> out) = 0;
};

// On the host, in parallel (oneTBB). Keeps the table of the last base per group, so repeated calls
// with the generator build it once. Not thread-safe: one instance per caller.
class host_fixed_base_multiplier final : public fixed_base_multiplier {
 public:
  status mul_g1(const ec::g1_affine& base, std::span<const ff::fr> k, std::span<ec::g1_affine> out) override {
    return run(g1_, base, k, out);
  }
  status mul_g2(const ec::g2_affine& base, std::span<const ff::fr> k, std::span<ec::g2_affine> out) override {
    return run(g2_, base, k, out);
  }

 private:
  template <class Curve>
  static status run(std::unique_ptr<fixed_base_table<Curve>>& table, const ec::affine<Curve>& base,
                    std::span<const ff::fr> k, std::span<ec::affine<Curve>> out) {
    if (k.size() != out.size()) {
      return invalid_argument("fixed_base_multiplier: " + std::to_string(k.size()) + " scalars but room for " +
                              std::to_string(out.size()) + " points");
    }
    if (k.empty()) return ok_status();
    if (!table || !(table->base() == base)) table = std::make_unique<fixed_base_table<Curve>>(base);
    table->mul_batch(k, out);
    return ok_status();
  }

  std::unique_ptr<fixed_base_table<ec::g1_curve>> g1_;
  std::unique_ptr<fixed_base_table<ec::g2_curve>> g2_;
};

}  // namespace pp::groth16

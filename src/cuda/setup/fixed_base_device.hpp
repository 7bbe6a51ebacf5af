// Batched fixed-base multiplication on a GPU (groth16::fixed_base_multiplier): the key points of
// the insecure development setup. The window table of groth16::fixed_base_table (32 windows of 256
// affine points) is built on the host and uploaded once per base; scalars stream through two
// preallocated slots (pinned staging + device buffers, one stream each) in chunks, so copies of one
// chunk overlap the kernel of the other. Each thread: 32 mixed additions (madd-2008-s) into an XYZZ
// accumulator, then one inversion to affine. Results equal the host table's. Plain C++ header.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "core/result.hpp"
#include "cuda/runtime/cuda_stream.hpp"
#include "cuda/setup/fixed_base_launch.hpp"
#include "ec/affine.hpp"
#include "ff/fr.hpp"
#include "groth16/fixed_base_multiplier.hpp"

namespace pp::cuda {

struct fixed_base_device_config {
  int device = 0;
  // Scalars per launch. 2^22: 0.94 GiB per slot (32 B of scalar + 192 B of point room each) on the
  // device and as much pinned on the host, 1.9 GiB of each in all; a G1 chunk is tens of ms of
  // kernel, far above launch and synchronization costs.
  uint64_t chunk = uint64_t{1} << 22;
};

class fixed_base_device final : public groth16::fixed_base_multiplier {
 public:
  // Allocates everything the object uses, once: both tables, two slots, two streams on
  // config.device. invalid_argument for chunk = 0 or > fixed_base_detail::max_launch; CUDA failures (out of memory
  // included) as internal.
  static result<std::unique_ptr<fixed_base_device>> create(const fixed_base_device_config& config = {});
  // Device bytes (and, separately, as many pinned host bytes) create() allocates for the slots.
  [[nodiscard]] static uint64_t slot_bytes(uint64_t chunk);

  ~fixed_base_device() override;
  fixed_base_device(const fixed_base_device&) = delete;
  fixed_base_device& operator=(const fixed_base_device&) = delete;

  // Blocking: returns once every point is in out. Not thread-safe (one caller at a time).
  status mul_g1(const ec::g1_affine& base, std::span<const ff::fr> k, std::span<ec::g1_affine> out) override;
  status mul_g2(const ec::g2_affine& base, std::span<const ff::fr> k, std::span<ec::g2_affine> out) override;

  [[nodiscard]] const fixed_base_device_config& config() const { return config_; }

 private:
  struct slot {
    ff::fr* d_scalars = nullptr;
    void* d_points = nullptr;
    ff::fr* h_scalars = nullptr;
    void* h_points = nullptr;
    cuda_stream stream;
    uint64_t begin = 0, count = 0;  // the chunk in flight (count = 0: none)
  };

  explicit fixed_base_device(const fixed_base_device_config& config) : config_(config) {}
  status allocate();
  template <class Curve>
  status run(const ec::affine<Curve>& base, std::span<const ff::fr> k, std::span<ec::affine<Curve>> out);
  template <class Curve>
  status run_chunks(const ec::affine<Curve>* d_table, std::span<const ff::fr> k, std::span<ec::affine<Curve>> out);
  template <class Curve>
  status finish(slot& s, std::span<ec::affine<Curve>> out);
  void abandon();  // after an error: wait for both streams, forget their chunks

  fixed_base_device_config config_;
  slot slots_[2];
  ec::g1_affine* d_table_g1_ = nullptr;
  ec::g2_affine* d_table_g2_ = nullptr;
  std::optional<ec::g1_affine> table_base_g1_;  // the base d_table_g1_ holds, if any
  std::optional<ec::g2_affine> table_base_g2_;
};

}  // namespace pp::cuda

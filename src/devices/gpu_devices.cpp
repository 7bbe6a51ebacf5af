// gpu_devices (gpu_devices.hpp) on the CUDA backend: a device per GPU whose busy fraction is the
// backend's CUDA-event measure (union of the lanes' kernel intervals), not time spent in start().
// It proves both curves: BN254 partitions run on the same backend (cuda_bn254_backend.hpp).
#include "devices/gpu_devices.hpp"

#include <memory>
#include <string>

#include "core/status_macros.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "cuda/prover/cuda_bn254_backend.hpp"
#include "cuda/runtime/device_info.hpp"
#include "cuda/setup/fixed_base_device.hpp"

namespace pp::devices {
namespace {

class gpu_device final : public device {
 public:
  gpu_device(std::string name, std::unique_ptr<cuda::cuda_backend> be)
      : name_(std::move(name)), be_(std::move(be)), bn254_(*be_) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view kind() const override { return "cuda"; }
  [[nodiscard]] groth16::backend& backend() override { return *be_; }
  [[nodiscard]] groth16::bn254::backend* bn254_backend() override { return &bn254_; }
  [[nodiscard]] std::optional<device_measures> measures() const override {
    const auto a = be_->gpu_activity();
    return device_measures{a.partitions == 0 ? 0.0 : a.busy_fraction(), be_->h2d_bytes(), be_->capacity_bytes()};
  }
  void reset_measures() override { be_->reset_activity(); }
  void set_host_charge(host_charge charge) override { be_->set_host_charge(std::move(charge)); }

 private:
  std::string name_;
  std::unique_ptr<cuda::cuda_backend> be_;
  cuda::cuda_bn254_backend bn254_;  // views *be_, declared after it
};

}  // namespace

bool gpu_support_built() { return true; }

result<int> gpu_count() { return cuda::device_count(); }

result<std::vector<gpu_facts>> query_gpus() {
  PP_ASSIGN_OR_RETURN(const int count, cuda::device_count());
  std::vector<gpu_facts> out;
  for (int i = 0; i < count; ++i) {
    PP_ASSIGN_OR_RETURN(const cuda::device_info d, cuda::query_device(i));
    out.push_back({d.ordinal, d.name, d.cc_major, d.cc_minor, static_cast<uint64_t>(d.total_memory_bytes),
                   static_cast<uint64_t>(d.free_memory_bytes), d.driver_version, d.runtime_version});
  }
  return out;
}

result<std::vector<device_ptr>> make_gpu_devices(const gpu_device_options& options) {
  PP_ASSIGN_OR_RETURN(const int count, cuda::device_count());
  if (count == 0) return unavailable("no CUDA device is present (or no driver)");
  std::vector<int> ordinals = options.ordinals;
  if (ordinals.empty()) {
    for (int i = 0; i < count; ++i) ordinals.push_back(i);
  }
  std::vector<device_ptr> out;
  for (int ord : ordinals) {
    if (ord < 0 || ord >= count) {
      return invalid_argument("GPU " + std::to_string(ord) + " does not exist (" + std::to_string(count) + " present)");
    }
    cuda::cuda_backend_config cfg;
    cfg.device = ord;
    cfg.lanes = options.lanes;
    cfg.vram_share = options.vram_share;
    cfg.max_vram_bytes = options.max_vram_bytes;
    cfg.staging_bytes = options.staging_bytes;
    cfg.h_copies = options.h_copies;
    cfg.h2d_cap_bytes_per_s = options.h2d_cap_bytes_per_s;
    cfg.max_matrix_chunk_bytes = options.max_matrix_chunk_bytes;
    auto be = cuda::cuda_backend::create(cfg);
    if (!be.ok()) return be.error().with_context("GPU " + std::to_string(ord));
    out.push_back(std::make_unique<gpu_device>("gpu" + std::to_string(ord), std::move(be).value()));
  }
  return out;
}

result<std::unique_ptr<groth16::fixed_base_multiplier>> make_gpu_fixed_base_multiplier(int ordinal) {
  PP_ASSIGN_OR_RETURN(const int count, cuda::device_count());
  if (ordinal < 0 || ordinal >= count) return unavailable("GPU " + std::to_string(ordinal) + " is not present");
  cuda::fixed_base_device_config cfg;
  cfg.device = ordinal;
  auto m = cuda::fixed_base_device::create(cfg);
  if (!m.ok()) return m.error().with_context("GPU " + std::to_string(ordinal));
  return std::unique_ptr<groth16::fixed_base_multiplier>(std::move(m).value());
}

}  // namespace pp::devices

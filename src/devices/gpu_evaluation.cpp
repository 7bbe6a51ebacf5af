// gpu_evaluation.hpp on the CUDA backend: each GPU device's cuda_backend, proving from evaluations.
#include "devices/gpu_evaluation.hpp"

#include <string>
#include <utility>

#include "core/status_macros.hpp"
#include "cuda/prover/cuda_backend.hpp"

namespace pp::devices {
namespace {

class gpu_evaluation_backend final : public groth16::evaluation_backend {
 public:
  gpu_evaluation_backend(device_ptr d, cuda::cuda_backend& be) : device_(std::move(d)), be_(be) {}
  [[nodiscard]] std::string_view name() const override { return device_->name(); }
  [[nodiscard]] uint32_t lanes() const override { return be_.lanes(); }
  result<groth16::proof> prove(const groth16::evaluation_request& req) override {
    auto r = be_.prove_evaluations(req);
    if (!r.ok()) return std::move(r).take_status().with_context(std::string(device_->name()));
    return r;
  }
  void forget(const groth16::proving_key& pk) override { be_.forget_key(pk); }

 private:
  device_ptr device_;       // owns be_
  cuda::cuda_backend& be_;
};

}  // namespace

result<std::vector<std::unique_ptr<groth16::evaluation_backend>>> make_gpu_evaluation_backends(
    const gpu_device_options& options) {
  PP_ASSIGN_OR_RETURN(std::vector<device_ptr> devices, make_gpu_devices(options));
  std::vector<std::unique_ptr<groth16::evaluation_backend>> out;
  for (device_ptr& d : devices) {
    auto* be = dynamic_cast<cuda::cuda_backend*>(&d->backend());
    if (be == nullptr) return internal_error("make_gpu_evaluation_backends: a GPU device without a cuda_backend");
    out.push_back(std::make_unique<gpu_evaluation_backend>(std::move(d), *be));
  }
  return out;
}

}  // namespace pp::devices

// The CPU device (device.hpp): both curves' CPU backends under a name.
#include "devices/device.hpp"

#include "groth16/prover.hpp"

namespace pp::devices {
namespace {

class cpu_device final : public device {
 public:
  cpu_device(std::string name, cpu_curves curves) : name_(std::move(name)), curves_(curves) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view kind() const override { return "cpu"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }
  [[nodiscard]] groth16::bn254::backend* bn254_backend() override { return &bn254_backend_; }
  [[nodiscard]] bool proves_bls12_381() const override { return curves_ == cpu_curves::both; }

 private:
  std::string name_;
  cpu_curves curves_;
  groth16::cpu_backend backend_;
  groth16::bn254::cpu_backend bn254_backend_;
};

}  // namespace

device_ptr make_cpu_device(std::string name, cpu_curves curves) {
  return std::make_unique<cpu_device>(std::move(name), curves);
}

}  // namespace pp::devices

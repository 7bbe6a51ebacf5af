// The CPU device (device.hpp): both curves' CPU backends under a name.
#include "devices/device.hpp"

#include "groth16/prover.hpp"

namespace pp::devices {
namespace {

class cpu_device final : public device {
 public:
  explicit cpu_device(std::string name) : name_(std::move(name)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view kind() const override { return "cpu"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }
  [[nodiscard]] groth16::bn254::backend* bn254_backend() override { return &bn254_backend_; }

 private:
  std::string name_;
  groth16::cpu_backend backend_;
  groth16::bn254::cpu_backend bn254_backend_;
};

}  // namespace

device_ptr make_cpu_device(std::string name) { return std::make_unique<cpu_device>(std::move(name)); }

}  // namespace pp::devices

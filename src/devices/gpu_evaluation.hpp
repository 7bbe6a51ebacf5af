// Provers from QAP evaluations on the GPUs (supraseal-c2's ABI, src/c2; docs/c2_abi.md): one
// groth16::evaluation_backend per GPU, on the lanes of the cuda_backend that make_gpu_devices
// creates for it (cuda_backend::prove_evaluations). Built without CUDA, or with no GPU present:
// unavailable, and the caller proves on the CPU (groth16::prove_from_evaluations).
#pragma once
#include <memory>
#include <vector>

#include "core/result.hpp"
#include "devices/gpu_devices.hpp"
#include "groth16/evaluation_prover.hpp"

namespace pp::devices {

result<std::vector<std::unique_ptr<groth16::evaluation_backend>>> make_gpu_evaluation_backends(
    const gpu_device_options& options);

}  // namespace pp::devices

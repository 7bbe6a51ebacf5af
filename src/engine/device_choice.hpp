// device_choice: the backend choice the daemon and the CLI share. "cpu": cfg.cpu_devices CPU
// devices; "cuda": every selected GPU (failed_precondition when none is present or the build has
// no CUDA backend); "auto": the GPUs when there are any, else the CPUs. Beside GPUs, one CPU device
// for BN254 keys when cfg.bn254_cpu_device (GPUs prove both curves). workers 0 means 2 per GPU
// (one partition's upload overlaps another's kernels) and 1 per CPU device (the CPU backend uses
// every core for one partition).
#pragma once
#include <cstdint>
#include <string_view>

#include "core/result.hpp"
#include "engine/engine_config.hpp"
#include "devices/gpu_devices.hpp"

namespace pp::engine {

// Sets cfg.make_devices (GPUs) and cfg.workers_per_device; returns whether GPUs were chosen.
result<bool> choose_devices(std::string_view backend, uint32_t workers, devices::gpu_device_options gpu,
                            engine_config& cfg);

}  // namespace pp::engine

// gpu_devices: the GPU device factories, one device per GPU backed by cuda::cuda_backend
// (docs/engine.md, "GPU lanes"). A device's workers are the backend's lanes: each lane has its own
// streams, pinned staging and partition workspace, reserved once at creation, so two workers share a
// GPU without any device-global call (no cudaMalloc, cudaFree or device synchronization after
// creation) and one partition's upload overlaps another's kernels. Built without CUDA, gpu_count() is 0 and make_gpu_devices refuses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "devices/device.hpp"
#include "groth16/fixed_base_multiplier.hpp"

namespace pp::devices {

struct gpu_device_options {
  uint32_t lanes = 2;              // workers per GPU (the engine's workers_per_device)
  double vram_share = 0.9;         // of each GPU's free memory at creation, taken as one region
  uint64_t max_vram_bytes = 0;     // cap on that region (0: none)
  uint64_t staging_bytes = uint64_t{512} << 20;  // pinned host staging per lane (packed witness)
  uint32_t h_copies = 1;           // copies of H's points a lone resident key may keep (cuda_backend_config)
  double h2d_cap_bytes_per_s = 0;  // partitions' host-to-device copies held to this rate (a measurement aid; 0: none)
  uint64_t max_matrix_chunk_bytes = 0;  // streamed matrices' row chunks (0: the tuning's; cuda_backend_config)
  std::vector<int> ordinals;       // GPUs to use; empty: all
};

// What the CUDA runtime reports of one GPU (cuda/runtime/device_info.hpp), for `proofpipe doctor`.
struct gpu_facts {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;   // at query time
  int driver_version = 0;    // the newest CUDA version the driver supports, e.g. 12080 for 12.8
  int runtime_version = 0;   // the CUDA runtime this binary carries
};

// Whether this build has the CUDA backend at all.
bool gpu_support_built();
// Usable GPUs (0 without a driver, a device or CUDA support in the build).
result<int> gpu_count();
// Every usable GPU (none without a driver, a device or CUDA support in the build).
result<std::vector<gpu_facts>> query_gpus();
// "gpu0", "gpu1", ... one per GPU; unavailable when the build has no CUDA backend or no GPU is
// present, resource_exhausted when a GPU's region cannot be reserved.
result<std::vector<device_ptr>> make_gpu_devices(const gpu_device_options& options);
// The insecure setup's point maker on GPU `ordinal` (cuda::fixed_base_device), for benchmarks and
// demos that build big keys; unavailable as make_gpu_devices.
result<std::unique_ptr<groth16::fixed_base_multiplier>> make_gpu_fixed_base_multiplier(int ordinal);

}  // namespace pp::devices

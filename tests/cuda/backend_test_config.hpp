// The cuda_backend configuration the GPU prover tests run under: a region of 80% of the free VRAM
// capped at `max_vram_gib`, `staging_mib` of pinned staging per lane, and `lanes` lanes.
#pragma once
#include <cstdint>

#include "cuda/cuda_backend.hpp"

namespace pp::cuda::test {

inline cuda_backend_config backend_test_config(uint64_t max_vram_gib, uint64_t staging_mib, uint32_t lanes) {
  cuda_backend_config c;
  c.vram_share = 0.8;
  c.max_vram_bytes = max_vram_gib << 30;
  c.staging_bytes = staging_mib << 20;
  c.lanes = lanes;
  return c;
}

}  // namespace pp::cuda::test

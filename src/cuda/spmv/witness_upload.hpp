// Compact witness upload (docs/design.md, "Device memory"): the host splits w into a bitmap of its {0, 1}
// values (bit set = 1; other values read as 0 there) and the list of the other values with their positions,
// packed into a pinned staging buffer; one copy moves it to the device, where it is expanded into the dense
// witness the SpMV reads. PoRep witnesses are ~90% 0/1: 1 bit instead of 32 bytes each. Packing is plain C++
// (oneTBB); the device half is in witness_upload.cu. Templates on the scalar field (both curves'
// instantiated there).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "cuda/plan/spmv_tuning.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"

namespace pp::cuda {

// Packs w into h_staging (parallel); resource_exhausted when it needs more than h_staging.size()
// bytes (the message says how many). Positions come out ascending.
template <class Fr>
result<compact_witness_layout> pack_witness(std::span<const Fr> w, std::span<std::byte> h_staging);

// Copies the packed bytes from h_staging (pinned, as packed) into d_workspace (>= layout.bytes,
// 256-byte aligned) and expands them into d_w (num_variables values), all ordered on stream. The
// staging buffer and workspace must stay untouched until that work completes (record an event
// after this call).
template <class Fr>
status upload_witness(const compact_witness_layout& layout, const void* h_staging, void* d_workspace, Fr* d_w,
                      cudaStream_t stream, const spmv_tuning& tuning = spmv_tuning_sm90);

}  // namespace pp::cuda

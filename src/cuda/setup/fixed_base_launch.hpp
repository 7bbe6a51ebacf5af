// The device half of fixed_base_device (fixed_base_device.hpp): the window shape it shares with
// groth16::fixed_base_table and the kernel launcher, instantiated in fixed_base_g1.cu / _g2.cu.
// Plain C++ header; kept apart so the .cu files need nothing from the groth16 layer.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/status.hpp"
#include "ec/affine.hpp"
#include "ff/fr.hpp"

namespace pp::cuda::fixed_base_detail {

// groth16::fixed_base_table's shape (static_assert in fixed_base_device.cpp): T[j][d] = [d 2^(8j)] B
// at index j * 256 + d, 32 windows covering 256 bits.
inline constexpr int window_bits = 8;
inline constexpr int num_windows = 32;
inline constexpr uint64_t table_points = uint64_t{num_windows} << window_bits;
// Scalars per launch at most (32-bit thread indices with room to spare).
inline constexpr uint64_t max_launch = uint64_t{1} << 30;

// out[i] = [k[i]] B for i < n (n <= max_launch), ordered on stream; d_table holds B's window table.
template <class Curve>
status launch(const ec::affine<Curve>* d_table, const ff::fr* d_scalars, uint64_t n, ec::affine<Curve>* d_out,
              cudaStream_t stream);

}  // namespace pp::cuda::fixed_base_detail

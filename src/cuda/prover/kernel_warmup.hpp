// kernel_warmup: the device memory the CUDA driver takes, outside any allocation of ours, the first
// time the prover's kernels run in a process: their code (modules load lazily, on first launch) and
// the local memory it reserves, at a kernel's first launch, for per-thread stack frames in the
// threads the GPU can hold (ptxas gives the G2 MSM kernels frames of up to 2848 bytes). 460 MiB in all
// on an H200 (docs/perf/vram-budgets.md, "The kernels' memory inside the budget"). cuda_backend::create
// runs it before it sizes its region, so this memory is taken up front and counted in the VRAM budget,
// not at the first partition. Internal to the cuda layer.
#pragma once
#include <cstdint>

#include "core/result.hpp"

namespace pp::cuda {

// Runs tiny plain and split MSMs over G1 and G2 of both curves (BLS12-381's and BN254's, which the
// backend proves on the same region) on `device` (points at infinity, every scalar
// neither 0 nor 1: every MSM kernel is launched, the bucket reduction's combine tree included) in a
// scratch allocation freed before it returns, and returns how much less device memory is free after
// than before (0 when the process had run them already). Setup only: it synchronizes the device.
result<uint64_t> warm_up_kernels(int device);

// What the kernels' first launches took on `device` in this process: warm_up_kernels' figure from
// the first call, that same figure afterwards (the memory stays taken for the process's life), so
// that every backend's budget holds it, also one created after another took it.
result<uint64_t> kernel_driver_bytes(int device);

}  // namespace pp::cuda

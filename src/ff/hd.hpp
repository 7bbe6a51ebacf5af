// PP_HD marks code compiled for both the host and the device (written once, used on both sides).
#pragma once

// PP_HD_INLINE also forces inlining on the host, for the few small hot functions g++ would
// otherwise call out of line (field add/sub and the multiplication dispatch in the MSM bucket loops).
#if defined(__CUDACC__)
#define PP_HD __host__ __device__ __forceinline__
#define PP_HD_INLINE __host__ __device__ __forceinline__
#define PP_HD_NOINLINE __host__ __device__ __noinline__
#define PP_DEVICE_CODE_ALLOWED 1
#else
#define PP_HD inline
#define PP_HD_INLINE inline __attribute__((always_inline))
#define PP_HD_NOINLINE
#endif

// True while nvcc compiles the device side of a translation unit.
#if defined(__CUDA_ARCH__)
#define PP_DEVICE_PASS 1
#else
#define PP_DEVICE_PASS 0
#endif

// Fully unrolls the next loop (limb loops have compile-time trip counts).
#if defined(__CUDACC__)
#define PP_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define PP_UNROLL _Pragma("clang loop unroll(full)")
#else
#define PP_UNROLL _Pragma("GCC unroll 16")
#endif

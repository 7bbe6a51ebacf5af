// The PTX instructions the device path of the Montgomery fields is written in (ff/mont_mul_device.hpp,
// ff/mont_dot_device.hpp), and where that path compiles: in nvcc's device pass, each primitive one
// PTX instruction, the carry flag passing between consecutive asm volatile statements (nvcc keeps
// them in program order); and in host tests that define these primitives in C++ first
// (tests/ff/ptx_carry_model.hpp), so the same code runs on the CPU against GMP without a GPU.
#pragma once
#include <cstdint>

#include "ff/hd.hpp"

#if PP_DEVICE_PASS
#define PP_DEVICE_PATH 1
#define PP_DEVICE_PATH_FN __device__ __forceinline__
#elif defined(PP_PTX_CARRY_MODEL)
#define PP_DEVICE_PATH 1
#define PP_DEVICE_PATH_FN inline
#else
#define PP_DEVICE_PATH 0
#endif

#if PP_DEVICE_PASS
namespace pp::ff::device_path {

PP_DEVICE_PATH_FN uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r;
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
PP_DEVICE_PATH_FN uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r;
  asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
PP_DEVICE_PATH_FN uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r;
  asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
PP_DEVICE_PATH_FN uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r;
  asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
PP_DEVICE_PATH_FN uint32_t add_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
PP_DEVICE_PATH_FN uint32_t addc_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
PP_DEVICE_PATH_FN uint32_t addc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
PP_DEVICE_PATH_FN uint32_t sub_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
PP_DEVICE_PATH_FN uint32_t subc_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
PP_DEVICE_PATH_FN uint32_t subc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
// The high half of a 32x32-bit product (the low half is the plain product).
PP_DEVICE_PATH_FN uint32_t mul_hi(uint32_t a, uint32_t b) { return __umulhi(a, b); }

}  // namespace pp::ff::device_path
#endif

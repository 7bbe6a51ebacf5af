// The PTX carry-chain instructions of src/ff/ptx_carry_chain.hpp in C++, so that the device path of
// the Montgomery fields (mont_mul_device.hpp, mont_dot_device.hpp) runs on the host, instruction for
// instruction, in tests checked against GMP. Besides the carry flag (a borrow for sub/subc, as in
// PTX) it counts what the device code's bounds promise never happens: a carry lost, written by a .cc
// instruction and overwritten before a carry-in instruction read it, or out of the top of madc.hi /
// addc, which keep no carry; and a carry-in instruction reading a flag no .cc instruction left for
// it. Include it before any header that includes ff/ptx_carry_chain.hpp.
#pragma once
#if defined(PP_DEVICE_PATH)
#error "tests/ff/ptx_carry_model.hpp must be included before ff/ptx_carry_chain.hpp"
#endif
#define PP_PTX_CARRY_MODEL 1

#include <cstdint>

namespace pp::ff::device_consts {
// The device reads this from the constant bank (ff/mont_mul_device.hpp, reduction_factor).
inline constexpr uint32_t minus_one = 0xffffffffu;
}  // namespace pp::ff::device_consts

namespace pp::ff::device_path {

struct carry_flag {
  uint32_t cf = 0;
  bool unread = false;  // written by a .cc instruction, not yet read by a carry-in one
  uint64_t lost = 0;
  uint64_t stale_reads = 0;
};
inline thread_local carry_flag carry;

namespace ptx_model {
// A .cc instruction's result: the low 32 bits out, bit 32 into the flag.
inline uint32_t set_flag(uint64_t s) {
  if (carry.unread && carry.cf != 0) ++carry.lost;
  carry.cf = uint32_t(s >> 32) & 1;
  carry.unread = true;
  return uint32_t(s);
}
inline uint64_t read_flag() {
  if (!carry.unread) ++carry.stale_reads;
  carry.unread = false;
  return carry.cf;
}
// A result with no carry out: whatever is above 32 bits is gone.
inline uint32_t drop_carry(uint64_t s) {
  if ((s >> 32) != 0) ++carry.lost;
  return uint32_t(s);
}
inline uint64_t lo(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) * b); }
inline uint64_t hi(uint32_t a, uint32_t b) { return (uint64_t(a) * b) >> 32; }
// a - b - borrow as the flag sees it: bit 32 set when it borrowed.
inline uint64_t diff(uint32_t a, uint64_t b) { return (uint64_t(a) - b) & ((uint64_t(1) << 33) - 1); }
}  // namespace ptx_model

inline uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return ptx_model::set_flag(ptx_model::lo(a, b) + c); }
inline uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t cin = ptx_model::read_flag();
  return ptx_model::set_flag(ptx_model::lo(a, b) + c + cin);
}
inline uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t cin = ptx_model::read_flag();
  return ptx_model::set_flag(ptx_model::hi(a, b) + c + cin);
}
inline uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t cin = ptx_model::read_flag();
  return ptx_model::drop_carry(ptx_model::hi(a, b) + c + cin);
}
inline uint32_t add_cc(uint32_t a, uint32_t b) { return ptx_model::set_flag(uint64_t(a) + b); }
inline uint32_t addc_cc(uint32_t a, uint32_t b) {
  const uint64_t cin = ptx_model::read_flag();
  return ptx_model::set_flag(uint64_t(a) + b + cin);
}
inline uint32_t addc(uint32_t a, uint32_t b) {
  const uint64_t cin = ptx_model::read_flag();
  return ptx_model::drop_carry(uint64_t(a) + b + cin);
}
inline uint32_t sub_cc(uint32_t a, uint32_t b) { return ptx_model::set_flag(ptx_model::diff(a, b)); }
inline uint32_t subc_cc(uint32_t a, uint32_t b) {
  const uint64_t bin = ptx_model::read_flag();
  return ptx_model::set_flag(ptx_model::diff(a, uint64_t(b) + bin));
}
// Like addc it keeps no borrow, but a borrow past its top is not counted as lost: the device code's
// subc(0, 0) turns the flag into a mask that way.
inline uint32_t subc(uint32_t a, uint32_t b) {
  const uint64_t bin = ptx_model::read_flag();
  return uint32_t(ptx_model::diff(a, uint64_t(b) + bin));
}
inline uint32_t mul_hi(uint32_t a, uint32_t b) { return uint32_t(ptx_model::hi(a, b)); }

}  // namespace pp::ff::device_path

#include "ff/mont_dot_device.hpp"
#include "ff/mont_mul_device.hpp"
#include "ff/mont_sqr_device.hpp"

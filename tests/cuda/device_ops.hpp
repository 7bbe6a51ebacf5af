// The operations the GPU tests check, each written once as a PP_HD function: the host reference
// and the device kernel call the same apply(), so any difference comes from the field's device
// path. run_on_device<Op> copies inputs in, runs one thread per element, copies the results out.
#pragma once
#include <cstdint>

#include "core/status.hpp"
#include "ec/ec.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace pp::cuda::test {

enum class op {
  fp_mul, fp_sqr, fp_add, fp_sub, fp_neg, fp_inv, fp_mul_sub, fp_mul_sub_squares,
  fr_mul, fr_sqr, fr_add, fr_sub, fr_inv,
  fp2_mul, fp2_sqr, fp2_add, fp2_sub, fp2_inv, fp2_mul_sub, fp2_mul_sub_squares,
  g1_xyzz_add, g1_xyzz_madd, g1_xyzz_dbl, g1_jac_add, g1_jac_madd, g1_jac_dbl,
  g2_xyzz_add, g2_xyzz_madd, g2_xyzz_dbl, g2_jac_add, g2_jac_madd, g2_jac_dbl,
};

template <op O>
struct op_def;

#define PP_TEST_OP(id, A, B, OUT, expr)                                    \
  template <>                                                              \
  struct op_def<op::id> {                                                  \
    using a_t = A;                                                         \
    using b_t = B;                                                         \
    using out_t = OUT;                                                     \
    static constexpr const char* name = #id;                               \
    PP_HD static out_t apply([[maybe_unused]] const a_t& a, [[maybe_unused]] const b_t& b) { return expr; } \
  };

// Unary operations take b = a (the second input is ignored).
PP_TEST_OP(fp_mul, ff::fp, ff::fp, ff::fp, a * b)
PP_TEST_OP(fp_sqr, ff::fp, ff::fp, ff::fp, a.sqr())
PP_TEST_OP(fp_add, ff::fp, ff::fp, ff::fp, a + b)
PP_TEST_OP(fp_sub, ff::fp, ff::fp, ff::fp, a - b)
PP_TEST_OP(fp_neg, ff::fp, ff::fp, ff::fp, -a)
PP_TEST_OP(fp_inv, ff::fp, ff::fp, ff::fp, a.inverse())
// mont_field::mul_sub (ff/mont_dot_device.hpp on the device) with four inputs from two: every
// edge pair reaches c and d, among them d = 0 (where the device path multiplies c by p).
PP_TEST_OP(fp_mul_sub, ff::fp, ff::fp, ff::fp, ff::fp::mul_sub(a, b, a + b, a - b))
PP_TEST_OP(fp_mul_sub_squares, ff::fp, ff::fp, ff::fp, ff::fp::mul_sub(a, a, b, b))
PP_TEST_OP(fr_mul, ff::fr, ff::fr, ff::fr, a * b)
PP_TEST_OP(fr_sqr, ff::fr, ff::fr, ff::fr, a.sqr())
PP_TEST_OP(fr_add, ff::fr, ff::fr, ff::fr, a + b)
PP_TEST_OP(fr_sub, ff::fr, ff::fr, ff::fr, a - b)
PP_TEST_OP(fr_inv, ff::fr, ff::fr, ff::fr, a.inverse())
PP_TEST_OP(fp2_mul, ff::fp2, ff::fp2, ff::fp2, a * b)
PP_TEST_OP(fp2_sqr, ff::fp2, ff::fp2, ff::fp2, a.sqr())
PP_TEST_OP(fp2_add, ff::fp2, ff::fp2, ff::fp2, a + b)
PP_TEST_OP(fp2_sub, ff::fp2, ff::fp2, ff::fp2, a - b)
PP_TEST_OP(fp2_inv, ff::fp2, ff::fp2, ff::fp2, a.inverse())
// fp2::mul_sub (four Fp products a coefficient in one pass on the device), inputs as fp_mul_sub's.
PP_TEST_OP(fp2_mul_sub, ff::fp2, ff::fp2, ff::fp2, ff::fp2::mul_sub(a, b, a + b, a - b))
PP_TEST_OP(fp2_mul_sub_squares, ff::fp2, ff::fp2, ff::fp2, ff::fp2::mul_sub(a, a, b, b))

PP_TEST_OP(g1_xyzz_add, ec::g1_xyzz, ec::g1_xyzz, ec::g1_xyzz, ec::add(a, b))
PP_TEST_OP(g1_xyzz_madd, ec::g1_xyzz, ec::g1_affine, ec::g1_xyzz, ec::madd(a, b))
PP_TEST_OP(g1_xyzz_dbl, ec::g1_xyzz, ec::g1_xyzz, ec::g1_xyzz, ec::dbl(a))
PP_TEST_OP(g1_jac_add, ec::g1_jacobian, ec::g1_jacobian, ec::g1_jacobian, ec::add(a, b))
PP_TEST_OP(g1_jac_madd, ec::g1_jacobian, ec::g1_affine, ec::g1_jacobian, ec::madd(a, b))
PP_TEST_OP(g1_jac_dbl, ec::g1_jacobian, ec::g1_jacobian, ec::g1_jacobian, ec::dbl(a))
PP_TEST_OP(g2_xyzz_add, ec::g2_xyzz, ec::g2_xyzz, ec::g2_xyzz, ec::add(a, b))
PP_TEST_OP(g2_xyzz_madd, ec::g2_xyzz, ec::g2_affine, ec::g2_xyzz, ec::madd(a, b))
PP_TEST_OP(g2_xyzz_dbl, ec::g2_xyzz, ec::g2_xyzz, ec::g2_xyzz, ec::dbl(a))
PP_TEST_OP(g2_jac_add, ec::g2_jacobian, ec::g2_jacobian, ec::g2_jacobian, ec::add(a, b))
PP_TEST_OP(g2_jac_madd, ec::g2_jacobian, ec::g2_affine, ec::g2_jacobian, ec::madd(a, b))
PP_TEST_OP(g2_jac_dbl, ec::g2_jacobian, ec::g2_jacobian, ec::g2_jacobian, ec::dbl(a))

#undef PP_TEST_OP

// out[i] = op_def<O>::apply(a[i], b[i]) on the current device for i < n (pageable host buffers).
template <op O>
status run_on_device(const typename op_def<O>::a_t* a, const typename op_def<O>::b_t* b,
                     typename op_def<O>::out_t* out, int64_t n);

}  // namespace pp::cuda::test

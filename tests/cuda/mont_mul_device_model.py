#!/usr/bin/env python3
# Instruction-level model of src/ff/mont_mul_device.hpp (mont_mul, mod_add, mod_sub) and
# src/ff/mont_dot_device.hpp (mont_mul_sub: two products, one reduction) with PTX
# carry-flag semantics. Checks the results against big-integer arithmetic and, on every step, the
# bounds the device code relies on: no carry is dropped where the code drops it (madc.hi / addc at
# the end of a chain). Runs without a GPU (ctest label unit). Keep it in step with the header.
import random
import sys

M32 = (1 << 32) - 1


class Flags:
    cf = 0


cc = Flags()


def mad_lo_cc(a, b, c):
    s = ((a * b) & M32) + c
    cc.cf = s >> 32
    return s & M32


def madc_lo_cc(a, b, c):
    s = ((a * b) & M32) + c + cc.cf
    cc.cf = s >> 32
    return s & M32


def madc_hi_cc(a, b, c):
    s = ((a * b) >> 32) + c + cc.cf
    cc.cf = s >> 32
    return s & M32


def madc_hi(a, b, c):
    s = ((a * b) >> 32) + c + cc.cf
    assert s >> 32 == 0, "madc.hi dropped a carry"
    return s & M32


def add_cc(a, b):
    s = a + b
    cc.cf = s >> 32
    return s & M32


def addc_cc(a, b):
    s = a + b + cc.cf
    cc.cf = s >> 32
    return s & M32


def addc(a, b, may_wrap=False):
    s = a + b + cc.cf
    assert may_wrap or s >> 32 == 0, "addc dropped a carry"
    return s & M32


def sub_cc(a, b):
    s = a - b
    cc.cf = 1 if s < 0 else 0
    return s & M32


def subc_cc(a, b):
    s = a - b - cc.cf
    cc.cf = 1 if s < 0 else 0
    return s & M32


def subc(a, b):
    return (a - b - cc.cf) & M32


def mul_even(acc, a, off, bi, n):
    for j in range(0, n, 2):
        acc[j] = (a[off + j] * bi) & M32
        acc[j + 1] = (a[off + j] * bi) >> 32


def cmad_even(acc, a, off, bi, n):
    acc[0] = mad_lo_cc(a[off], bi, acc[0])
    acc[1] = madc_hi_cc(a[off], bi, acc[1])
    for j in range(2, n, 2):
        acc[j] = madc_lo_cc(a[off + j], bi, acc[j])
        acc[j + 1] = madc_hi_cc(a[off + j], bi, acc[j + 1])


def madc_even_rshift2(acc, a, off, bi, n):
    for j in range(0, n - 2, 2):
        acc[j] = madc_lo_cc(a[off + j], bi, acc[j + 2])
        acc[j + 1] = madc_hi_cc(a[off + j], bi, acc[j + 3])
    acc[n - 2] = madc_lo_cc(a[off + n - 2], bi, 0)
    acc[n - 1] = madc_hi(a[off + n - 2], bi, 0)


def reduce_step(x, y, p, inv, n):
    m = (x[0] * inv) & M32
    cmad_even(x, p, 0, m, n)
    y[n - 1] = addc(y[n - 1], 0)
    cmad_even(y, p, 1, m, n)
    assert cc.cf == 0, "carry out of the odd reduction chain"
    assert x[0] == 0


def mul_step(x, y, a, bi, p, inv, n):
    y[0] = add_cc(y[0], x[1])
    madc_even_rshift2(x, a, 1, bi, n)
    cmad_even(y, a, 0, bi, n)
    x[n - 1] = addc(x[n - 1], 0)
    reduce_step(y, x, p, inv, n)


def final_subtract(t, p, n):
    r = [0] * n
    r[0] = sub_cc(t[0], p[0])
    for i in range(1, n):
        r[i] = subc_cc(t[i], p[i])
    keep = subc(0, 0)
    return [(t[i] & keep) | (r[i] & ~keep & M32) for i in range(n)]


def limbs(v, n):
    return [(v >> (32 * i)) & M32 for i in range(n)]


def value(l):
    return sum(x << (32 * i) for i, x in enumerate(l))


def mont_mul(a, b, pv, n):
    p = limbs(pv, n)
    inv = (-pow(pv, -1, 1 << 32)) % (1 << 32)
    a32, b32 = limbs(a, n), limbs(b, n)
    x, y = [0] * n, [0] * n
    mul_even(x, a32, 0, b32[0], n)
    mul_even(y, a32, 1, b32[0], n)
    reduce_step(x, y, p, inv, n)
    for i in range(1, n):
        if i & 1:
            mul_step(x, y, a32, b32[i], p, inv, n)
        else:
            mul_step(y, x, a32, b32[i], p, inv, n)
    x[0] = add_cc(x[0], y[1])
    for i in range(1, n - 1):
        x[i] = addc_cc(x[i], y[i + 1])
    x[n - 1] = addc(x[n - 1], 0)
    return value(final_subtract(x, p, n))


def mod_add(a, b, pv, n):
    A, B = limbs(a, n), limbs(b, n)
    s = [0] * n
    s[0] = add_cc(A[0], B[0])
    for i in range(1, n - 1):
        s[i] = addc_cc(A[i], B[i])
    s[n - 1] = addc(A[n - 1], B[n - 1])
    return value(final_subtract(s, limbs(pv, n), n))


def mod_sub(a, b, pv, n):
    A, B, P = limbs(a, n), limbs(b, n), limbs(pv, n)
    d = [0] * n
    d[0] = sub_cc(A[0], B[0])
    for i in range(1, n):
        d[i] = subc_cc(A[i], B[i])
    borrow = subc(0, 0)
    d[0] = add_cc(d[0], P[0] & borrow)
    for i in range(1, n - 1):
        d[i] = addc_cc(d[i], P[i] & borrow)
    d[n - 1] = addc(d[n - 1], P[n - 1] & borrow, may_wrap=True)  # wraps mod 2^(32n) by design
    return value(d)


def dot_step(x, y, a, bi, c, di, p, inv, n):
    y[0] = add_cc(y[0], x[1])
    madc_even_rshift2(x, a, 1, bi, n)
    cmad_even(x, c, 1, di, n)
    assert cc.cf == 0, "carry out of the odd accumulator"
    cmad_even(y, a, 0, bi, n)
    x[n - 1] = addc(x[n - 1], 0)
    cmad_even(y, c, 0, di, n)
    x[n - 1] = addc(x[n - 1], 0)
    reduce_step(y, x, p, inv, n)


def mont_mul_sub(a, b, c, d, pv, n):
    """mont_dot_device.hpp: (a*b - c*d) / R as a*b + c*(p - d) in one CIOS pass."""
    p = limbs(pv, n)
    inv = (-pow(pv, -1, 1 << 32)) % (1 << 32)
    a32, b32, c32, e32 = limbs(a, n), limbs(b, n), limbs(c, n), limbs(d, n)
    e32[0] = sub_cc(p[0], e32[0])
    for i in range(1, n - 1):
        e32[i] = subc_cc(p[i], e32[i])
    e32[n - 1] = subc(p[n - 1], e32[n - 1])
    assert value(e32) == pv - d
    x, y = [0] * n, [0] * n
    mul_even(y, a32, 1, b32[0], n)
    cmad_even(y, c32, 1, e32[0], n)
    assert cc.cf == 0, "carry out of the first odd row"
    mul_even(x, a32, 0, b32[0], n)
    cmad_even(x, c32, 0, e32[0], n)
    y[n - 1] = addc(y[n - 1], 0)
    reduce_step(x, y, p, inv, n)
    for i in range(1, n):
        if i & 1:
            dot_step(x, y, a32, b32[i], c32, e32[i], p, inv, n)
        else:
            dot_step(y, x, a32, b32[i], c32, e32[i], p, inv, n)
    x[0] = add_cc(x[0], y[1])
    for i in range(1, n - 1):
        x[i] = addc_cc(x[i], y[i + 1])
    x[n - 1] = addc(x[n - 1], 0)
    assert value(x) < 2 * pv, "the pass ends at or above 2p"
    return value(final_subtract(x, p, n))

FP = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
FR = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


def main():
    seed = random.SystemRandom().getrandbits(64)
    print(f"seed 0x{seed:016x}")
    rng = random.Random(seed)
    for pv, n in ((FP, 12), (FR, 8)):
        r = 1 << (32 * n)
        r_inv = pow(r, -1, pv)
        edges = [0, 1, 2, pv - 1, pv - 2, (pv - 1) // 2, r % pv, M32, 1 << 64, pv - r % pv]

        def patterned():
            v = 0
            for i in range(n):
                v |= rng.choice([0, 1, M32, M32 - 1, rng.getrandbits(32)]) << (32 * i)
            return v % pv

        pool = edges + [rng.randrange(pv) for _ in range(500)] + [patterned() for _ in range(500)]
        pairs = [(a, b) for a in edges for b in edges] + [(rng.choice(pool), rng.choice(pool)) for _ in range(1500)]
        for a, b in pairs:
            assert mont_mul(a, b, pv, n) == a * b * r_inv % pv, (hex(a), hex(b))
            assert mod_add(a, b, pv, n) == (a + b) % pv, (hex(a), hex(b))
            assert mod_sub(a, b, pv, n) == (a - b) % pv, (hex(a), hex(b))
            if pv >> (32 * n - 2) == 0:  # mont_mul_sub's bound: Fp only
                c, d = rng.choice(pool), rng.choice(pool)
                for x, y in ((c, d), (a, b), (b, a), (pv - 1, pv - 1), (0, 0), (pv - 1, 0), (0, pv - 1)):
                    got = mont_mul_sub(a, b, x, y, pv, n)
                    assert got == (a * b - x * y) * r_inv % pv, (hex(a), hex(b), hex(x), hex(y))
        print(f"{n} limbs: {len(pairs)} pairs ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes the hostile-header seeds of the format fuzzers into fuzz/formats/corpus/<target>/.

Each seed is a small iden3 container (magic, u32 version, u32 nSections, then {u32 id, u64 size,
bytes} sections, little-endian) that is well formed except for one lie: a size field beyond the
file, a count its section cannot hold, a missing section, or a header that claims 2^32 - 1 wires
with no wire map. The readers must refuse each with a status, never allocate what the header
claims; tests/formats/hostile_seeds_test.cpp reads them in the unit suite too. The valid seeds
are the circom fixtures. bellperson parameters (big-endian, no container) get tiny files of generator
points: two valid, and one lie each (a count beyond the file, a cut or overlong file, flags, a
coordinate >= p, an off-curve point, inconsistent counts). Run from the repository root: python3 fuzz/formats/make_seeds.py
"""
import os
import shutil
import struct

ROOT = os.path.dirname(os.path.abspath(__file__))
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
Q = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB

# The generators (zcash BLS12-381 serialization spec), checked on the curve below.
G1_X = 0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB
G1_Y = 0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1
G2_X = (0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
        0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E)
G2_Y = (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
        0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE)
assert (G1_Y * G1_Y - G1_X ** 3 - 4) % Q == 0


def fp2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % Q, (a[0] * b[1] + a[1] * b[0]) % Q)


_x3 = fp2_mul(fp2_mul(G2_X, G2_X), G2_X)
_y2 = fp2_mul(G2_Y, G2_Y)
assert ((_y2[0] - _x3[0] - 4) % Q, (_y2[1] - _x3[1] - 4) % Q) == (0, 0)  # y^2 = x^3 + 4(1 + u)


def be(n, size):
    return n.to_bytes(size, "big")


def le(n, size):
    return n.to_bytes(size, "little")


def container(magic, version, sections, n_sections=None):
    out = magic + struct.pack("<II", version, len(sections) if n_sections is None else n_sections)
    for sid, body, *claimed in sections:
        out += struct.pack("<IQ", sid, claimed[0] if claimed else len(body)) + body
    return out


def field_r():
    return struct.pack("<I", 32) + le(R, 32)


def r1cs_header(wires, pub_out, pub_in, prv_in, labels, constraints):
    return field_r() + struct.pack("<IIIIQI", wires, pub_out, pub_in, prv_in, labels, constraints)


def one_constraint():
    term = struct.pack("<I", 1) + le(1, 32)  # wire 1, coefficient 1 (canonical; readers take it as given)
    return (struct.pack("<I", 1) + term) * 3


def write(target, name, data):
    d = os.path.join(ROOT, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    fixtures = os.path.join(ROOT, "..", "..", "tests", "fixtures", "circom")
    os.makedirs(os.path.join(ROOT, "corpus", "circom_r1cs_fuzz"), exist_ok=True)
    os.makedirs(os.path.join(ROOT, "corpus", "circom_wtns_fuzz"), exist_ok=True)
    shutil.copy(os.path.join(fixtures, "mul.r1cs"), os.path.join(ROOT, "corpus", "circom_r1cs_fuzz", "valid_mul.r1cs"))
    shutil.copy(os.path.join(fixtures, "mul.wtns"), os.path.join(ROOT, "corpus", "circom_wtns_fuzz", "valid_mul.wtns"))

    # .r1cs
    t = "circom_r1cs_fuzz"
    write(t, "wide_header_no_wire_map.r1cs",  # reads (nothing to allocate); `proofpipe setup` refuses it
          container(b"r1cs", 1, [(1, r1cs_header(0xFFFFFFFF, 0, 0, 0, 0, 1)), (2, one_constraint())]))
    write(t, "hostile_section_size_beyond_file.r1cs",
          container(b"r1cs", 1, [(1, r1cs_header(2, 0, 0, 0, 0, 1)), (2, one_constraint(), 1 << 40)]))
    write(t, "hostile_constraints_beyond_section.r1cs",
          container(b"r1cs", 1, [(1, r1cs_header(2, 0, 0, 0, 0, 0xFFFFFFFF)), (2, one_constraint())]))
    write(t, "hostile_terms_beyond_section.r1cs",
          container(b"r1cs", 1, [(1, r1cs_header(2, 0, 0, 0, 0, 1)), (2, struct.pack("<I", 0xFFFFFFFF) + one_constraint())]))
    write(t, "hostile_wire_map_short.r1cs",
          container(b"r1cs", 1, [(1, r1cs_header(0xFFFFFFFF, 0, 0, 0, 0, 1)), (2, one_constraint()), (3, le(0, 8) * 2)]))
    write(t, "hostile_missing_header.r1cs", container(b"r1cs", 1, [(2, one_constraint())]))
    write(t, "hostile_missing_constraints.r1cs", container(b"r1cs", 1, [(1, r1cs_header(2, 0, 0, 0, 0, 1))]))
    write(t, "hostile_more_sections_than_file.r1cs",
          container(b"r1cs", 1, [(1, r1cs_header(2, 0, 0, 0, 0, 1)), (2, one_constraint())], n_sections=0xFFFFFFFF))

    # .wtns
    t = "circom_wtns_fuzz"
    write(t, "hostile_count_beyond_section.wtns",
          container(b"wtns", 2, [(1, field_r() + struct.pack("<I", 0xFFFFFFFF)), (2, le(1, 32))]))
    write(t, "hostile_section_size_beyond_file.wtns",
          container(b"wtns", 2, [(1, field_r() + struct.pack("<I", 1)), (2, le(1, 32), 1 << 62)]))
    write(t, "hostile_missing_values.wtns", container(b"wtns", 2, [(1, field_r() + struct.pack("<I", 1))]))
    write(t, "hostile_missing_header.wtns", container(b"wtns", 2, [(2, le(1, 32))]))

    # .zkey: protocol 1 (Groth16), a Groth16 header for BLS12-381 with all-zero vk points.
    t = "zkey_fuzz"
    protocol = (1, struct.pack("<I", 1))

    def groth(n_vars, n_public, domain):
        return (2, struct.pack("<I", 48) + le(Q, 48) + struct.pack("<I", 32) + le(R, 32) +
                struct.pack("<III", n_vars, n_public, domain) + bytes(3 * 96 + 3 * 192))

    write(t, "hostile_points_missing.zkey", container(b"zkey", 1, [protocol, groth(0xFFFFFFFF, 1, 1 << 31)]))
    write(t, "hostile_ic_size_beyond_file.zkey",
          container(b"zkey", 1, [protocol, groth(0xFFFFFFFF, 1, 1 << 31), (3, bytes(96), 1 << 50)]))
    write(t, "hostile_coefficients_beyond_section.zkey",
          container(b"zkey", 1, [protocol, groth(2, 0, 2), (3, bytes(96)), (4, struct.pack("<I", 0xFFFFFFFF))]))
    write(t, "hostile_missing_groth_header.zkey", container(b"zkey", 1, [protocol]))

    # bellperson parameters (big-endian): the generators as every point, domain 2 (h holds 1 point).
    t = "bellperson_params_fuzz"
    g1 = be(G1_X, 48) + be(G1_Y, 48)
    g2 = be(G2_X[1], 48) + be(G2_X[0], 48) + be(G2_Y[1], 48) + be(G2_Y[0], 48)

    def params(ic=(g1,), h=(g1,), l=(g1,), a=(g1,), b_g1=(g1,), b_g2=(g2,), counts=None):
        vectors = [ic, h, l, a, b_g1, b_g2]
        out = g1 + g1 + g2 + g2 + g1 + g2
        for i, v in enumerate(vectors):
            out += struct.pack(">I", len(v) if counts is None or counts[i] is None else counts[i]) + b"".join(v)
        return out

    write(t, "valid_domain_2.params", params())
    write(t, "valid_domain_4.params", params(ic=(g1, g1), h=(g1,) * 3, l=(g1, g1), a=(g1,) * 3, b_g1=(), b_g2=()))
    write(t, "hostile_h_count_beyond_file.params", params(counts=[None, 0xFFFFFFFF, None, None, None, None]))
    write(t, "hostile_b_g2_cut_short.params", params()[:-5])
    write(t, "hostile_trailing_byte.params", params() + b"\0")
    write(t, "hostile_compressed_flag.params", params(l=(bytes([g1[0] | 0x80]) + g1[1:],)))
    write(t, "hostile_infinity_in_l.params", params(l=(bytes([0x40]) + bytes(95),)))
    write(t, "hostile_x_not_below_p.params", params(a=(be(Q, 48) + g1[48:],)))
    write(t, "hostile_g2_y_not_below_p.params", params(b_g2=(g2[:96] + be(Q, 48) + g2[144:],)))
    write(t, "hostile_off_curve.params", params(h=(g1[:95] + bytes([g1[95] ^ 1]),)))
    write(t, "hostile_h_not_domain_minus_one.params", params(h=(g1, g1)))
    write(t, "hostile_b_counts_differ.params", params(b_g2=()))
    write(t, "hostile_empty_ic.params", params(ic=()))


if __name__ == "__main__":
    main()

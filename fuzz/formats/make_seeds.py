#!/usr/bin/env python3
"""Writes the hostile-header seeds of the format fuzzers into fuzz/formats/corpus/<target>/.

Each seed is a small iden3 container (magic, u32 version, u32 nSections, then {u32 id, u64 size,
bytes} sections, little-endian) that is well formed except for one lie: a size field beyond the
file, a count its section cannot hold, a missing section, or a header that claims 2^32 - 1 wires
with no wire map. The readers must refuse each with a status, never allocate what the header
claims; tests/formats/hostile_seeds_test.cpp reads them in the unit suite too. The valid seeds
are the circom fixtures. Run from the repository root: python3 fuzz/formats/make_seeds.py
"""
import os
import shutil
import struct

ROOT = os.path.dirname(os.path.abspath(__file__))
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
Q = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB


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


if __name__ == "__main__":
    main()

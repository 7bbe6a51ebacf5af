// Curve oracle for tests/ec/oracle_test.cpp and bn254_oracle_test.cpp: reads a JSON request (stdin,
// or the file named by the first argument) and writes JSON answers computed by @noble/curves to stdout.
// Request: {"cases": [{"op": "mul", "group": "g1"|"g2", "k": "0x..."},
//                     {"op": "add", "group": ..., "a": <point>, "b": <point>}]}
// A case may name "curve": "bn254" ("bls12_381" when absent). BLS12-381 points are any encoding
// noble's fromHex accepts (compressed or not), and answers {"compressed": "<hex>", "uncompressed":
// "<hex>"}. noble has no BN254 encoding, so there points are affine coordinates as canonical hex,
// {"x": X, "y": Y} with an Fp2 coordinate as [c0, c1], or {"infinity": true}, in requests and answers.
// Any case may answer {"error": "..."}. "k" is reduced mod r.
import { readFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { bn254 } from '@noble/curves/bn254';

const curves = { bls12_381, bn254 };
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const big = (h) => BigInt(h.startsWith('0x') ? h : '0x' + h);

const bls_codec = {
  encode: (point) => ({ compressed: hex(point.toRawBytes(true)), uncompressed: hex(point.toRawBytes(false)) }),
  decode: (G, v) => G.fromHex(v),
};

// Coordinates of BN254 points: bigint (G1) or {c0, c1} (G2) in noble, canonical hex here.
const coord_out = (c) => (typeof c === 'bigint' ? c.toString(16) : [c.c0.toString(16), c.c1.toString(16)]);
const coord_in = (G, v) => (Array.isArray(v) ? G.Fp.fromBigTuple([big(v[0]), big(v[1])]) : big(v));
const bn_codec = {
  encode: (point) => {
    if (point.equals(point.constructor.ZERO)) return { infinity: true };
    const a = point.toAffine();
    return { x: coord_out(a.x), y: coord_out(a.y) };
  },
  decode: (G, v) => {
    if (v.infinity) return G.ZERO;
    const p = G.fromAffine({ x: coord_in(G, v.x), y: coord_in(G, v.y) });
    p.assertValidity();
    return p;
  },
};

function answer(c) {
  const name = c.curve || 'bls12_381';
  const curve = curves[name];
  if (!curve) throw new Error(`unknown curve ${c.curve}`);
  const groups = { g1: curve.G1.ProjectivePoint, g2: curve.G2.ProjectivePoint };
  const G = groups[c.group];
  if (!G) throw new Error(`unknown group ${c.group}`);
  const codec = name === 'bn254' ? bn_codec : bls_codec;
  if (c.op === 'mul') {
    const r = curve.params.r;
    const k = ((BigInt(c.k) % r) + r) % r;
    return codec.encode(G.BASE.multiplyUnsafe(k));  // multiplyUnsafe accepts k = 0
  }
  if (c.op === 'add') return codec.encode(codec.decode(G, c.a).add(codec.decode(G, c.b)));
  throw new Error(`unknown op ${c.op}`);
}

const input = process.argv[2] ? readFileSync(process.argv[2], 'utf8') : readFileSync(0, 'utf8');
const request = JSON.parse(input);
const results = request.cases.map((c) => {
  try {
    return answer(c);
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify({ results }) + '\n');

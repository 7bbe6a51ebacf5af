// Pairing oracle for tests/pairing/oracle_test.cpp and bn254_oracle_test.cpp: e([k1] G1, [k2] G2)
// with @noble/curves.
// Usage: node pairing_oracle.mjs [--curve bls12_381|bn254] K1 K2 [K1 K2 ...]
//        (scalars in hex, 1 <= k < r; the curve defaults to bls12_381)
// Prints one line per pair: the 12 canonical Fp coefficients in hex, in the order
// c0.c0.c0 c0.c0.c1 c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1 c1.c0.c0 ... c1.c2.c1 (Fp12 = c0 + c1 w,
// Fp6 = c0 + c1 v + c2 v^2, Fp2 = c0 + c1 u: the same towers as src/ff).
import { bls12_381 } from '@noble/curves/bls12-381';
import { bn254 } from '@noble/curves/bn254';

const curves = { bls12_381, bn254 };
let args = process.argv.slice(2);
let curve = bls12_381;
if (args[0] === '--curve') {
  curve = curves[args[1]];
  args = args.slice(2);
}
if (!curve || args.length === 0 || args.length % 2 !== 0) {
  console.error('usage: node pairing_oracle.mjs [--curve bls12_381|bn254] K1 K2 [K1 K2 ...]');
  process.exit(2);
}
const G1 = curve.G1.ProjectivePoint.BASE;
const G2 = curve.G2.ProjectivePoint.BASE;
for (let i = 0; i < args.length; i += 2) {
  const p = G1.multiply(BigInt('0x' + args[i]));
  const q = G2.multiply(BigInt('0x' + args[i + 1]));
  const f = curve.pairing(p, q);
  const out = [];
  for (const c6 of [f.c0, f.c1])
    for (const c2 of [c6.c0, c6.c1, c6.c2])
      for (const c of [c2.c0, c2.c1]) out.push(c.toString(16));
  console.log(out.join(' '));
}

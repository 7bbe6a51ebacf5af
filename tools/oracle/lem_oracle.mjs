// snarkjs's own point encoding as an oracle for tests/ec/lem_oracle_test.cpp: [k] G written by
// ffjavascript (the field and curve library snarkjs 0.7.6 writes .zkey and .ptau files with) in its
// "LEM" form (affine, little-endian Montgomery, Fp2 as c0 || c1, infinity as zeros).
// Request (the file named by the first argument): {"cases": [{"curve": "bn128"|"bls12381",
// "group": "g1"|"g2", "k": "0x..."}]}; answer on stdout: {"results": [{"lem": "<hex>"}]}.
// k is reduced mod r.
import { readFileSync } from 'node:fs';
import { buildBn128, buildBls12381 } from 'ffjavascript';

const request = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const built = { bn128: await buildBn128(true), bls12381: await buildBls12381(true) };
const results = request.cases.map((c) => {
  const curve = built[c.curve];
  const G = curve[c.group.toUpperCase()];
  const r = curve.r;
  const k = ((BigInt(c.k) % r) + r) % r;
  const out = new Uint8Array(G.F.n8 * 2);
  G.toRprLEM(out, 0, G.toAffine(G.timesScalar(G.g, k)));
  return { lem: Buffer.from(out).toString('hex') };
});
for (const c of Object.values(built)) await c.terminate();
process.stdout.write(JSON.stringify({ results }) + '\n');

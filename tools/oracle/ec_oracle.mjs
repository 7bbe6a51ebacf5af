// Curve oracle for tests/ec/oracle_test.cpp: reads a JSON request (stdin, or the file named by the
// first argument) and writes JSON answers computed by @noble/curves (bls12-381) to stdout.
// Request: {"cases": [{"op": "mul", "group": "g1"|"g2", "k": "0x..."},
//                     {"op": "add", "group": ..., "a": "<hex encoding>", "b": "<hex encoding>"}]}
// Answer:  {"results": [{"compressed": "<hex>", "uncompressed": "<hex>"} | {"error": "..."}]}
// "k" is reduced mod r; "a"/"b" are any encoding noble's fromHex accepts (compressed or not).
import { readFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381';

const groups = { g1: bls12_381.G1.ProjectivePoint, g2: bls12_381.G2.ProjectivePoint };
const r = bls12_381.params.r;
const hex = (bytes) => Buffer.from(bytes).toString('hex');

function encode(point) {
  return { compressed: hex(point.toRawBytes(true)), uncompressed: hex(point.toRawBytes(false)) };
}

function answer(c) {
  const G = groups[c.group];
  if (!G) throw new Error(`unknown group ${c.group}`);
  if (c.op === 'mul') {
    const k = ((BigInt(c.k) % r) + r) % r;
    return encode(G.BASE.multiplyUnsafe(k));  // multiplyUnsafe accepts k = 0
  }
  if (c.op === 'add') {
    const a = G.fromHex(c.a);
    const b = G.fromHex(c.b);
    return encode(a.add(b));
  }
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

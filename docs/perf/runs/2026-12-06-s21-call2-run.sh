#!/usr/bin/env bash
# Session 21, call 2: the BN254 backend test again (.devrun/fix.tar.xz: that test binary alone, of
# 799c371 + a BN254 key streamed under the least budget; CurvesShareOneRegion's expectation mended:
# call 1 found one re-plan, the policy's, not a thrash),
# GPU proofs of three circom bn128 circuits with snarkjs keys (.devrun/bn254-interop.tar.xz; snarkjs
# verifies them back on the dev host), then BLS12-381 before and after the GPU prover was templated
# over the curve, in the same call on the same card: the NTT at 2^27 and a 2^24 partition (cuda_prover_bench) from main's
# stage of 9e4f8d8 (.devrun/base.tar.xz: those two binaries) and from the branch's stage
# (.devrun/cuda.tar.xz), alternated; then, if the 300 s it allows itself leave room, a whole C2
# proof on the branch's build (device c2).
set -u
t0=$SECONDS
tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
tar -C .devrun -xJf .devrun/base.tar.xz || exit 1
tar -C .devrun -xJf .devrun/fix.tar.xz || exit 1
tar -C .devrun -xJf .devrun/bn254-interop.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; echo "commit $(cat commit.txt), base $(cat ../base/commit.txt)"; cat dirty.txt; nproc
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } >"$OUT/env.txt" 2>&1
timeout 120 ../fix/cuda_bn254_backend_test >"$OUT/bn254_test.log" 2>&1
echo "cuda_bn254_backend_test exit $? ($((SECONDS - t0)) s)"
grep -E '^\[  (PASSED|FAILED) |^\[       OK|FAILED' "$OUT/bn254_test.log" | tail -10
mkdir -p interop_out
for c in poly range merkle; do
  d=../bn254/interop/$c
  mkdir -p "interop_out/$c"
  cp "$d/vk.json" "interop_out/$c/"
  bin/proofpipe prove --backend cuda "$d/$c.zkey" "$d/$c.wtns" "interop_out/$c/proof.json" \
    "interop_out/$c/public.json" >"interop_out/$c/prove.log" 2>&1
  echo "gpu prove bn254 $c exit $?"
  grep -m1 -i "proving" "interop_out/$c/prove.log"
done
tar -czf "$OUT/interop.tar.gz" interop_out
for round in 1 2; do
  for b in ../base/cuda_ntt_bench bin/cuda_ntt_bench; do
    echo "=== round $round $b 27" >>"$OUT/ntt.log"
    timeout 60 "$b" 27 >>"$OUT/ntt.log" 2>&1
    echo "ntt $b exit $? ($((SECONDS - t0)) s)"
  done
done
grep -E '^===|forward|ntt ' "$OUT/ntt.log" | head -40
for b in ../base/cuda_prover_bench bin/cuda_prover_bench; do
  echo "=== $b --lanes 2 --runs 3 --cpu-check-max-log 0 24" >>"$OUT/prover.log"
  timeout 90 "$b" --lanes 2 --runs 3 --cpu-check-max-log 0 24 >>"$OUT/prover.log" 2>&1
  echo "prover $b exit $? ($((SECONDS - t0)) s)"
done
grep -E '^===|^result|steady|partition' "$OUT/prover.log" | head -30
cd ../.. || exit 1
left=$((300 - SECONDS + t0))
if [ "$left" -gt 120 ]; then
  PP_C2_ARGS="--proofs 2 --memory-mib 120000" PP_C2_LIMIT=$left bash scripts/device_run.sh device c2 >"$OUT/c2_phase.log" 2>&1
  echo "c2 phase exit $? ($((SECONDS - t0)) s)"
  tail -15 "$OUT/c2_phase.log"
fi

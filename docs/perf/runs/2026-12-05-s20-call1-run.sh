#!/usr/bin/env bash
# Call 1: the stage of s19-int (main's kernels + BN254's GPU MSM, never run): every GPU test, the MSM
# benchmark with BN254's G1 at 2^24 beside BLS12-381's, sppark's MSMs, then whole C2 proofs on the H200.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"
( cd .devrun/cuda && export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
  timeout 120 bin/cuda_msm_bench 24 26 g2:24 bn254:24 > $OUT/msm.log 2>&1; echo "msm exit $?"
  timeout 90 bin/ref_bench g1:24 g1:26 g2:24 > $OUT/ref.log 2>&1; echo "ref exit $?" )
grep -hE '^\| |^result ' $OUT/msm.log $OUT/ref.log | head -40
echo "msm done ($((SECONDS - t0)) s)"
left=$((585 - SECONDS + t0))
PP_C2_ARGS="--proofs 3 --memory-mib 120000" PP_C2_LIMIT=$left bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

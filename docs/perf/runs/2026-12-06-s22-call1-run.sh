#!/usr/bin/env bash
# Session 22, call 1, on the stage of branch s22 (main 4e35579 + the bn254-cpu-speed branch, whose
# fixed-base G2 kernel's code changed, + bench --porep --h-copies): every GPU test, then the MSM
# benchmark on the H200 with main's kernels (never run on an H200) and BN254's G1 beside
# BLS12-381's, sppark's MSMs and NTT and ours in the same call. Whole C2 proofs: call 2.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"
( cd .devrun/cuda && export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
  timeout 120 bin/cuda_msm_bench 24 26 g2:24 bn254:24 > $OUT/msm.log 2>&1; echo "msm exit $?"
  timeout 120 bin/ref_bench g1:24 g1:26 g2:24 ntt:27 > $OUT/ref.log 2>&1; echo "ref exit $?"
  timeout 60 bin/cuda_ntt_bench 27 > $OUT/ntt.log 2>&1; echo "ntt exit $?" )
grep -hE '^\| |^result ' $OUT/msm.log $OUT/ref.log $OUT/ntt.log | head -50
echo "msm done ($((SECONDS - t0)) s)"
echo "all done ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# s13 call 4: batch-affine bucket sums variant (launch bounds 128x3, points kept in local memory
# between the passes): MSM benchmark with both kernels.
set -u
timeout 150 .devstage/s13/cuda_msm_bench_exp 24 26 acc=xyzz,affine > "$OUT/msm_exp.log" 2>&1; echo "exit $?"
grep -E '^\| g1' "$OUT/msm_exp.log"

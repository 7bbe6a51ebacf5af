#!/usr/bin/env bash
# Session 22, call 3, on the H200 call 2 left warm, the same stage (15342ab): the MSM benchmark with
# main's kernels (call 1 ran them on an H100) and BN254's G1 beside BLS12-381's, sppark's MSMs and
# NTT, and our NTT, in one call.
cd .devrun/cuda 2>/dev/null || { tar -C .devrun -xJf .devrun/cuda.tar.xz && cd .devrun/cuda; }
export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader; cat commit.txt
timeout 120 bin/cuda_msm_bench 24 26 g2:24 bn254:24 > $OUT/msm.log 2>&1; echo "msm exit $?"
timeout 120 bin/ref_bench g1:24 g1:26 g2:24 ntt:27 > $OUT/ref.log 2>&1; echo "ref exit $?"
timeout 60 bin/cuda_ntt_bench 27 > $OUT/ntt.log 2>&1; echo "ntt exit $?"
grep -hE '^\| |^result ' $OUT/msm.log $OUT/ref.log; grep -E "^2\^27 +ntt +nr +9 " $OUT/ntt.log

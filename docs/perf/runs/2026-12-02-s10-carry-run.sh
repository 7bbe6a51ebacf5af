#!/usr/bin/env bash
# s10 call 1: the streamed split MSM's carried buckets (tests, then the 2^27 budgets) and the H2D rate
# by host memory kind.
set -u
tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; echo "commit $(cat commit.txt)"; echo "modified:"; cat dirty.txt; nproc
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
} >"$OUT/env.txt" 2>&1
t0=$SECONDS
timeout 30 bin/cuda_msm_plan_test >"$OUT/tests.log" 2>&1; echo "cuda_msm_plan_test exit $? ($((SECONDS-t0)) s)"
timeout 200 bin/cuda_msm_device_test >>"$OUT/tests.log" 2>&1; echo "cuda_msm_device_test exit $? ($((SECONDS-t0)) s)"
timeout 150 bin/cuda_backend_test --gtest_filter='*Streamed*' >>"$OUT/tests.log" 2>&1; echo "cuda_backend_test streamed exit $? ($((SECONDS-t0)) s)"
grep -E '^\[  (PASSED|FAILED) |mismatch' "$OUT/tests.log"
timeout 60 bin/cuda_h2d_bench 6 >"$OUT/h2d.log" 2>&1; echo "cuda_h2d_bench exit $? ($((SECONDS-t0)) s)"
cat "$OUT/h2d.log"
timeout 330 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0,24,16 \
  --lanes-per-thread 1 27 >"$OUT/budgets.log" 2>&1; echo "cuda_prover_bench exit $? ($((SECONDS-t0)) s)"
grep -E "gpu msm|gpu ntt|gpu spmv|GPU time per partition|key stream|plan used" "$OUT/budgets.log"

#!/usr/bin/env bash
# s10 call 3: the carried width by the cost model (merges): the MSM tests, the streamed backend tests,
# then the 2^27 budgets.
set -u
tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; echo "commit $(cat commit.txt)"; echo "modified:"; cat dirty.txt; nproc
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
} >"$OUT/env.txt" 2>&1
t0=$SECONDS
for t in cuda_msm_plan_test cuda_msm_device_test; do
  timeout 200 bin/$t >>"$OUT/tests.log" 2>&1; echo "$t exit $? ($((SECONDS-t0)) s)"
done
timeout 200 bin/cuda_backend_test --gtest_filter='*Streamed*:*DeviceMemory*:*Budget*' >>"$OUT/tests.log" 2>&1
echo "cuda_backend_test (streamed, memory, budget) exit $? ($((SECONDS-t0)) s)"
grep -E '^\[  (PASSED|FAILED) |mismatch|FAILED  \]' "$OUT/tests.log"
timeout 330 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0,24,16 \
  --lanes-per-thread 1 27 >"$OUT/budgets.log" 2>&1; echo "cuda_prover_bench exit $? ($((SECONDS-t0)) s)"
grep -E "gpu msm|gpu ntt|gpu spmv|GPU time per partition|key stream|plan used|kernels hold" "$OUT/budgets.log"

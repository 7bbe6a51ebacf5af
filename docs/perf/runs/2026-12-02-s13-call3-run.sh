#!/usr/bin/env bash
# s13 call 3: batch-affine bucket sums (G1): the plan test, the MSM device tests (forced affine lanes
# first), the MSM benchmark with both bucket-sum kernels in one invocation (acc=xyzz,affine) beside
# sppark, and the 2^27 partition (affine by the automatic choice).
set -u
t0=$SECONDS
mkdir -p .devrun/cuda && tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/call3-env.txt"; date -u >> "$OUT/call3-env.txt"
cat commit.txt dirty.txt >> "$OUT/call3-env.txt"
timeout 20 bin/cuda_msm_plan_test > "$OUT/plan_test.log" 2>&1; echo "plan test exit $? ($((SECONDS-t0)) s)"
timeout 120 bin/cuda_msm_device_test --gtest_filter='MsmDeviceAffine*:MsmDeviceArgs*' > "$OUT/affine_test.log" 2>&1
rc=$?; echo "affine tests exit $rc ($((SECONDS-t0)) s)"; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|mismatch' "$OUT/affine_test.log" | head
[ $rc -eq 0 ] || exit 1
timeout 200 bin/cuda_msm_bench 24 26 27 acc=xyzz,affine > "$OUT/msm_acc.log" 2>&1; echo "msm bench exit $? ($((SECONDS-t0)) s)"
grep -E '^\| g1' "$OUT/msm_acc.log"
timeout 60 bin/ref_bench g1:24 g1:26 > "$OUT/ref.log" 2>&1; echo "ref exit $? ($((SECONDS-t0)) s)"; tail -4 "$OUT/ref.log"
timeout 200 bin/cuda_prover_bench --lanes 2 --runs 3 --cpu-check-max-log 0 27 > "$OUT/part.log" 2>&1
echo "partition exit $? ($((SECONDS-t0)) s)"
grep -E 'kernels hold|gpu msm|gpu total|^lanes|result' "$OUT/part.log" | head -20

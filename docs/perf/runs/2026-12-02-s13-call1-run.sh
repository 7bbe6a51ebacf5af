#!/usr/bin/env bash
# s13 call 1: the safegcd inverse on the device: its field tests, the arithmetic benchmark's
# inverse rows (safegcd against Fermat, same call) and batch-affine addition rows, the copies'
# making time at 2^24 (MSM benchmark pre=), then every GPU test (scripts/device_run.sh device tests).
set -u
t0=$SECONDS
mkdir -p .devrun/cuda && tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
(
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/call1-env.txt"; date -u >> "$OUT/call1-env.txt"
cat commit.txt dirty.txt >> "$OUT/call1-env.txt"
timeout 60 bin/cuda_field_test --gtest_filter='*Inverse*' > "$OUT/field_inverse.log" 2>&1; echo "field inverse exit $? ($((SECONDS-t0)) s)"
grep -E '^\[  (PASSED|FAILED)|mismatch' "$OUT/field_inverse.log" | head
timeout 90 ../../.devstage/s13/cuda_arith_bench > "$OUT/arith.log" 2>&1; echo "arith exit $? ($((SECONDS-t0)) s)"
grep -E 'inverse|affine|madd' "$OUT/arith.log"
timeout 120 bin/cuda_msm_bench 24 g2:24 pre=12 > "$OUT/msm24.log" 2>&1; echo "msm24 exit $? ($((SECONDS-t0)) s)"
grep -E 'pre:|g[12] +\| 2\^' "$OUT/msm24.log"
)
bash scripts/device_run.sh device tests > "$OUT/device_tests_stdout.log" 2>&1; echo "tests exit $? ($((SECONDS-t0)) s)"
tail -20 "$OUT/device_tests_stdout.log"

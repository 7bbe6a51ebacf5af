#!/usr/bin/env bash
# s12 call 1: the precomputed-bases tests and the MSM device tests, then the MSM benchmark with
# precomputed bases beside the plain runs, then the reference library, in one call.
set -u
t0=$SECONDS
mkdir -p .devrun/cuda && tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt"; date -u >> "$OUT/env.txt"
cat commit.txt dirty.txt >> "$OUT/env.txt"
for t in cuda_msm_plan_test cuda_msm_precompute_test cuda_msm_device_test; do
  timeout 200 bin/$t > "$OUT/$t.log" 2>&1; echo "$t exit $? ($((SECONDS-t0)) s)"
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|mismatch|checked' "$OUT/$t.log" | head -20
done
timeout 150 bin/cuda_msm_bench 24 g2:24 c=0,22,24 pre=2,4,12 > "$OUT/msm24.log" 2>&1; echo "msm24 exit $? ($((SECONDS-t0)) s)"
cat "$OUT/msm24.log"
timeout 110 bin/cuda_msm_bench 26 c=0,24 pre=2,12 > "$OUT/msm26.log" 2>&1; echo "msm26 exit $? ($((SECONDS-t0)) s)"
cat "$OUT/msm26.log"
timeout 60 bin/ref_bench g1:24 g1:26 g2:24 > "$OUT/ref.log" 2>&1; echo "ref exit $? ($((SECONDS-t0)) s)"
cat "$OUT/ref.log"

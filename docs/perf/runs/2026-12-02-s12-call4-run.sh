#!/usr/bin/env bash
# s12 call 4: the copies made with Jacobian doublings and 16-point inversion batches: the
# precompute test, the MSM benchmark's copies table at 2^24, the 2^27 partition with 2 copies of H.
set -u
t0=$SECONDS
mkdir -p .devrun/cuda && tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt"; date -u >> "$OUT/env.txt"
cat commit.txt dirty.txt >> "$OUT/env.txt"
timeout 100 bin/cuda_msm_precompute_test > "$OUT/precompute_test.log" 2>&1; echo "precompute test exit $? ($((SECONDS-t0)) s)"
grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|mismatch' "$OUT/precompute_test.log" | head
timeout 120 bin/cuda_msm_bench 24 g2:24 pre=2,12 > "$OUT/msm24.log" 2>&1; echo "msm24 exit $? ($((SECONDS-t0)) s)"
grep -E 'pre:|g[12] +\| 2\^' "$OUT/msm24.log"
timeout 250 bin/cuda_prover_bench --lanes 2 --runs 3 --cpu-check-max-log 0 --h-copies 3 27 > "$OUT/part_copies.log" 2>&1
echo "partition copies exit $? ($((SECONDS-t0)) s)"
grep -E 'precomputed|key upload|gpu msm H|GPU time|^lanes' "$OUT/part_copies.log" | head

#!/usr/bin/env bash
# s13 call 6: the committed tree (75094bb): the 2^27 partition with and without 2 copies of H (the
# copies now made with safegcd inversions), MSM and copies' making at 2^24.
set -u
t0=$SECONDS
mkdir -p .devrun/cuda && tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/call6-env.txt"; date -u >> "$OUT/call6-env.txt"
cat commit.txt dirty.txt >> "$OUT/call6-env.txt"
timeout 250 bin/cuda_prover_bench --lanes 2 --runs 3 --cpu-check-max-log 0 --h-copies 3 27 > "$OUT/part_copies.log" 2>&1
echo "partition copies exit $? ($((SECONDS-t0)) s)"
grep -E 'kernels hold|precomputed|key upload|gpu msm H|gpu total|^lanes' "$OUT/part_copies.log" | head
timeout 100 bin/cuda_msm_bench 24 pre=12 > "$OUT/msm24.log" 2>&1; echo "msm24 exit $? ($((SECONDS-t0)) s)"
grep -E 'pre:|g1 +\| 2\^' "$OUT/msm24.log"

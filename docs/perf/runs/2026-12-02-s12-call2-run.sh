#!/usr/bin/env bash
# s12 call 2: the backend's proofs over H's copies against the CPU, then the 2^27 PoRep partition
# with two copies of H's points (--h-copies 3) and without, one after the other in this call.
set -u
t0=$SECONDS
mkdir -p .devrun/cuda && tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt"; date -u >> "$OUT/env.txt"
cat commit.txt dirty.txt >> "$OUT/env.txt"
timeout 120 bin/cuda_backend_test --gtest_filter='*HCopies*' > "$OUT/hcopies.log" 2>&1; echo "hcopies exit $? ($((SECONDS-t0)) s)"
grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|differs|Failure' "$OUT/hcopies.log" | head
for run in copies plain; do
  extra=(); [ $run = copies ] && extra=(--h-copies 3)
  timeout 250 bin/cuda_prover_bench --lanes 2 --runs 3 --cpu-check-max-log 0 "${extra[@]}" 27 > "$OUT/part_$run.log" 2>&1
  echo "partition $run exit $? ($((SECONDS-t0)) s)"
  grep -E 'precomputed|key upload|device memory|gpu msm|gpu ntt|GPU time per partition|^lanes|plan' "$OUT/part_$run.log" | head -20
done

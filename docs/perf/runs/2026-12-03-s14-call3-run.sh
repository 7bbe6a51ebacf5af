#!/usr/bin/env bash
# s14 call 3: the 2^27 PoRep partition before (base: 030df00's kernels) and with the point
# fetch-ahead (eb83f1d), same call; then ncu of the G1 accumulation kernel at 2^24, both.
set -u
t0=$SECONDS
tar -C /tmp -xJf .devstage/c3.tar.xz || exit 1
cd /tmp/c3 || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$OUT/env.txt" 2>&1
for v in new base; do
  b=bin/cuda_prover_bench; [ $v = base ] && b=bin/cuda_prover_bench_base
  echo "=== $v" >> "$OUT/part.log"
  timeout 220 $b --lanes 2 --runs 3 --cpu-check-max-log 0 27 >> "$OUT/part.log" 2>&1; echo "partition $v exit $? ($((SECONDS-t0)) s)"
done
grep -E '^===|gpu msm|gpu ntt|gpu total|^lanes|^result' "$OUT/part.log"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for v in new base; do
  b=bin/cuda_msm_bench; [ $v = base ] && b=bin/cuda_msm_bench_base
  timeout 100 "$ncu" --clock-control none --kernel-name-base mangled -k 'regex:segmented_sum_kernel.*point_source' \
    --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section Occupancy --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis $b 24 > "$OUT/ncu_$v.txt" 2>&1
  echo "ncu $v exit $? ($((SECONDS-t0)) s)"
done
grep -E 'Duration|Issue Slots Busy|Warp Cycles Per Issued|Stall|No Eligible|Eligible Warps|Compute \(SM\) Throughput|Memory Throughput' "$OUT"/ncu_*.txt | head -40

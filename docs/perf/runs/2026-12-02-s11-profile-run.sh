#!/usr/bin/env bash
# s11 call 1: where the MSM's time goes. ncu kernel durations of one G1 2^24 / G2 2^24 / G1 2^26
# MSM set, ncu stall sections for the accumulation kernel, event timings, the reference library.
set -u
here=$PWD
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd .devrun/cuda
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
nvidia-smi >"$OUT/env.txt" 2>&1; ncu --version >>"$OUT/env.txt" 2>&1
t0=$SECONDS
timeout 120 bin/cuda_msm_bench 24 26 27 g2:24 g2:25 >"$OUT/msm.log" 2>&1; echo "msm exit $? $((SECONDS-t0))s"
if [ -x "$here/.devstage/prof/ref_bench" ]; then
  timeout 90 "$here/.devstage/prof/ref_bench" g1:24 g1:26 g2:24 ntt:27 >"$OUT/ref.log" 2>&1; echo "ref exit $? $((SECONDS-t0))s"
fi
# Durations of every kernel (one metric, one replay pass each).
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  bin/cuda_msm_bench 24 g2:24 >"$OUT/ncu_times.csv" 2>"$OUT/ncu_times.err"; echo "ncu times exit $? $((SECONDS-t0))s"
# Stall and throughput sections of the accumulation kernel (first launch of each curve) and of the sort.
for spec in "24" "g2:24"; do
  tag=${spec/:/}
  timeout 100 ncu --clock-control none --kernel-name regex:segmented_sum_kernel --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --section ComputeWorkloadAnalysis --section InstructionStats --section MemoryWorkloadAnalysis \
    --section SourceCounters \
    bin/cuda_msm_bench $spec >"$OUT/ncu_acc_$tag.txt" 2>&1; echo "ncu acc $spec exit $? $((SECONDS-t0))s"
done
cuobjdump --dump-resource-usage bin/cuda_msm_bench >"$OUT/resources.txt" 2>&1
cuobjdump --dump-sass bin/cuda_msm_bench 2>/dev/null | awk '/Function : /{p = ($0 ~ /segmented_sum_kernel/)} p' >"$OUT/sass_acc.txt"
# Instruction mix per accumulation kernel.
awk '/Function : /{name=$3} /^ +\/\*[0-9a-f]+\*\//{for(k=2;k<=NF;k++){if($k ~ /^[A-Z][A-Z0-9_.]+$/){split($k,a,".");c[name" "a[1]]++;break}}} END{for(x in c) print c[x], x}' "$OUT/sass_acc.txt" | sort -k2,2 -k1,1nr >"$OUT/sass_mix.txt"
gzip -f "$OUT/sass_acc.txt"
ls -la "$OUT"

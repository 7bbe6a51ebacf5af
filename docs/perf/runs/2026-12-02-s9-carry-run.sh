#!/usr/bin/env bash
# s9 carry device call inside $1 seconds (default 580), logs under $OUT, in priority order: the MSM
# tests and cuda_backend_test (the changed code, streamed budgets); G1 2^27 plain MSM in 16 chunks
# with this branch's and main's cuda_msm_bench (A/B in one run); the 2^27 partition under 0/24/16
# GiB; the same A/B at 8 and 4 chunks, the other GPU tests and the skip path as time remains.
# From /work/main: run(command="bash .devstage/carry/run.sh 580", carry=[".devstage/carry"], timeout_s=600)
total="${1:-580}"
cd "$(dirname "$0")" || exit 1
start=$SECONDS
left() { echo $((total - (SECONDS - start))); }
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cp cuda_msm_bench_main .devrun/cuda/bin/ 2>/dev/null
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/lib_cxx"; fi
{ date -u; echo "commit $(cat commit.txt)"; nproc
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
} >"$OUT/env.txt" 2>&1
run() {  # log limit binary args...
  local log=$1 lim=$2; shift 2
  local l; l=$(left); [ "$lim" -gt "$l" ] && lim=$l
  if [ "$lim" -le 5 ]; then echo "$* not run (no time left)" | tee -a "$OUT/summary.txt"; return; fi
  local t0=$SECONDS
  echo "=== $* (limit $lim s)" >>"$OUT/$log"
  timeout "$lim" "$@" >>"$OUT/$log" 2>&1
  echo "$* exit $? ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
}
run tests.log 30 bin/cuda_msm_plan_test
run tests.log 170 bin/cuda_msm_device_test
run tests.log 240 bin/cuda_backend_test
run msm.log 35 bin/cuda_msm_bench 27 chunk=23
run msm.log 35 bin/cuda_msm_bench_main 27 chunk=23
run budgets.log 330 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0,24,16 \
  --lanes-per-thread 1 27
for c in 24 25; do
  run msm.log 35 bin/cuda_msm_bench 27 chunk=$c
  run msm.log 35 bin/cuda_msm_bench_main 27 chunk=$c
done
for x in cuda_device_info_test:20 cuda_field_test:60 cuda_curve_test:90 cuda_ntt_device_test:90 \
         cuda_spmv_device_test:120 cuda_device_memory_test:30 cuda_fixed_base_device_test:120 cuda_evaluation_test:120 \
         cuda_evaluation_staging_test:60 cuda_pinned_chunk_copier_test:60; do
  run tests.log "${x##*:}" bin/"${x%%:*}"
done
if [ "$(left)" -gt 5 ]; then
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_device_info_test >/dev/null 2>&1
  echo "skip path exit $? (want 77)" | tee -a "$OUT/summary.txt"
fi
grep -E '^\[  (PASSED|FAILED) |^\[  FAILED' "$OUT/tests.log"
grep -E '^(G1|g1)|plain|IDENTICAL|DIFFERS|budget_run|gpu msm' "$OUT/msm.log" "$OUT/budgets.log" 2>/dev/null | head -60

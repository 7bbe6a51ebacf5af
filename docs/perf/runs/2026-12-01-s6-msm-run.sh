#!/usr/bin/env bash
# msm, session 6: one device call (tests, MSM bench, reference, partition, ncu), logs under $OUT.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${OUT:?}"
budget="${PP_WALL:-275}"
stage=/tmp/msm_stage
rm -rf "$stage" && mkdir -p "$stage" && tar -C "$stage" -xJf "$here/msm.tar.xz" || exit 1
cd "$stage/msm" || exit 1
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/lib_cxx"; fi
{ date -u; echo "commit $(cat commit.txt)"; echo "modified:"; cat dirty.txt; nproc
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
} >"$OUT/env.txt" 2>&1
step() {
  local name="$1" limit="$2"; shift 2
  local left=$((budget - SECONDS))
  if [ "$left" -lt 5 ]; then echo "$name: skipped (no time left)" | tee -a "$OUT/summary.txt"; return 1; fi
  [ "$limit" -gt "$left" ] && limit=$left
  local t0=$SECONDS
  timeout "$limit" "$@" >>"$OUT/$name.log" 2>&1
  local rc=$?
  echo "$name: $* exit $rc ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
  return $rc
}
step tests 10 bin/cuda_msm_plan_test
step tests 110 bin/cuda_msm_device_test
step tests 70 bin/cuda_backend_test --gtest_filter='*StreamedKeys*:*SmallCircuits*:*PoRepLike*'
step msm 50 bin/cuda_msm_bench 24 26 27 g2:24 g2:25
step ref 30 bin/ref_bench g1:24 g1:26 g2:24
step partition 130 bin/cuda_prover_bench --lanes 1 --runs 3 --cpu-check-max-log 0 27
step msm 20 bin/cuda_msm_bench 27 chunk=26
step msm 20 bin/cuda_msm_bench 27 chunk=24
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
step ncu 40 "$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --launch-count 70 bin/cuda_msm_bench 24
grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|mismatch' "$OUT/tests.log"
grep -hE '^\| |^result |gpu total|^msm' "$OUT"/msm.log "$OUT"/ref.log "$OUT"/partition.log 2>/dev/null
cat "$OUT/summary.txt"

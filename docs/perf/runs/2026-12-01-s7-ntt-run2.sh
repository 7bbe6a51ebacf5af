#!/usr/bin/env bash
# ntt, session 7, second call: the first call's cuda_ntt_bench stopped at its first explicit-shape row
# (a plan error in the benchmark's row setup, fixed in the commit this binary was built from), so
# this call times the NTT again up to 2^27 with sppark's NTT in the same run, and takes ncu's
# occupancy and scheduler figures of the default kernel's first pass at 2^24. Logs under $OUT.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${OUT:?}"
budget="${PP_WALL:-60}"
stage=/tmp/ntt_stage2
rm -rf "$stage" && mkdir -p "$stage" && tar -C "$stage" -xJf "$here/ntt2.tar.xz" || exit 1
cd "$stage/ntt" || exit 1
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
step ref 6 bin/ref_bench ntt:27
step bench 30 bin/cuda_ntt_bench 27
step ref 6 bin/ref_bench ntt:24 ntt:26 ntt:27
# The default plan's first pass at 2^24: the 2^24 nn row's first launch (2^20 and 2^22 take
# 4 rows x 9 runs x 3 passes = 108 pass launches before it).
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
step ncu 20 "$NCU" --clock-control none -k regex:ntt_pass_kernel --launch-skip 108 -c 1 --section SpeedOfLight \
  --section Occupancy --section SchedulerStats --section LaunchStats bin/cuda_ntt_bench 24
grep -hE '^2\^|^\| |^result ' "$OUT"/bench.log "$OUT"/ref.log 2>/dev/null
grep -E 'ntt_pass_kernel|Registers|Achieved Occupancy|Theoretical Occupancy|Eligible Warps|Active Warps|Issued Warp|No Eligible|Duration|Compute \(SM\) Throughput|Memory Throughput|Local' "$OUT/ncu.log" | head -30
cat "$OUT/summary.txt"

#!/usr/bin/env bash
# ntt, session 7: one device call (NTT tests, the H step's proofs against the CPU, the NTT benchmark,
# sppark's NTT in the same run), logs under $OUT. ntt.tar.xz beside this script holds the binaries
# built here (bin/: cuda_ntt_device_test, cuda_backend_test, cuda_evaluation_test, cuda_ntt_bench,
# ref_bench = tools/ref_bench/build.sh against sppark 17278d7) and the shared libraries they need.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${OUT:?}"
budget="${PP_WALL:-95}"
stage=/tmp/ntt_stage
rm -rf "$stage" && mkdir -p "$stage" && tar -C "$stage" -xJf "$here/ntt.tar.xz" || exit 1
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
step tests 40 bin/cuda_ntt_device_test --gtest_filter='-*EightPerThread*:*SharedMemoryOf99KiB*'
step bench 30 bin/cuda_ntt_bench 27
step ref 12 bin/ref_bench ntt:24 ntt:26 ntt:27
step tests 20 bin/cuda_backend_test --gtest_filter='Bases/*:*StreamedMatricesUnderTheLeastBudget*'
step tests 10 bin/cuda_evaluation_test --gtest_filter='*SmallAndPowerOfTwo*:*BadRequests*'
step ref 8 bin/ref_bench ntt:27
grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|mismatches [1-9]' "$OUT/tests.log"
grep -hE '^2\^|^\| |^result ' "$OUT"/bench.log "$OUT"/ref.log 2>/dev/null
cat "$OUT/summary.txt"

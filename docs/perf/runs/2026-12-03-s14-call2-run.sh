#!/usr/bin/env bash
# s14 call 2: every GPU test with the point fetch-ahead (scripts/device_run.sh device tests), then
# the MSM and NTT benchmarks beside the reference library, all in one call.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests > "$OUT/device_tests_stdout.log" 2>&1; echo "tests exit $? ($((SECONDS-t0)) s)"
tail -4 "$OUT/device_tests_stdout.log"
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
timeout 120 bin/cuda_msm_bench 24 26 27 g2:24 > "$OUT/bench.log" 2>&1; echo "msm bench exit $? ($((SECONDS-t0)) s)"
timeout 60 bin/cuda_ntt_bench 27 >> "$OUT/bench.log" 2>&1; echo "ntt bench exit $? ($((SECONDS-t0)) s)"
timeout 90 bin/ref_bench g1:24 g1:26 g2:24 ntt:27 > "$OUT/ref.log" 2>&1; echo "ref exit $? ($((SECONDS-t0)) s)"
grep -E '^\| g[12] |nn.*2\^27|2\^27.*nn' "$OUT/bench.log" | head -20
grep -E '^result' "$OUT/ref.log"

#!/usr/bin/env bash
# s16 call 1: every GPU test with the one-pass a*b - c*d of the XYZZ formulas (src/ff/mont_dot_device.hpp),
# then the MSM benchmark and sppark 17278d7's MSMs in the same call.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests > "$OUT/tests-summary.txt" 2>&1
echo "tests done ($((SECONDS - t0)) s)"; grep -E 'exit|PASSED|FAILED' "$OUT/tests-summary.txt" | tail -20
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
timeout 120 bin/cuda_msm_bench 24 26 g2:24 > "$OUT/msm.log" 2>&1; echo "msm exit $? ($((SECONDS - t0)) s)"
timeout 80 bin/ref_bench g1:24 g1:26 g2:24 > "$OUT/ref.log" 2>&1; echo "ref exit $? ($((SECONDS - t0)) s)"
grep -hE '^\| |^result |^msm' "$OUT/msm.log" "$OUT/ref.log" | head -30

#!/usr/bin/env bash
# Lead's s9 run: every GPU test of main (test CMake and host MSM changed), then 2^26 under 16 GiB
# with whole-chunk copies (s7's plan; never measured with them).
set -u
cd "$(dirname "$0")/../.."   # repository root
t0=$SECONDS
timeout 330 bash scripts/device_run.sh device tests > "$OUT/tests_phase.log" 2>&1
echo "tests phase exit $? ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH="$PWD/lib"
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/lib_cxx"; fi
left=$((400 - SECONDS))
timeout $left bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0,16 --lanes-per-thread 1 26 > "$OUT/budgets26.log" 2>&1
echo "budgets 26 exit $? ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
grep -E 'IDENTICAL|DIFFERS|^result|budget_run' "$OUT/budgets26.log" | head -20

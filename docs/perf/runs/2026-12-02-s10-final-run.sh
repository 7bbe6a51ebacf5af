#!/usr/bin/env bash
# s10 call 4 (final, d75797d): every GPU test and the skip path, then the 2^27 partition under every
# budget (unlimited first, then 24, 16, 32, 48 GiB), logs written as they go.
set -u
bash scripts/device_run.sh device tests
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
timeout 240 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0,24,16,32,48 \
  --lanes-per-thread 1 27 >"$OUT/budgets.log" 2>&1; echo "cuda_prover_bench exit $?"
grep -E "GPU time per partition|plan used" "$OUT/budgets.log"

#!/usr/bin/env bash
# Session 22, call 5, the stage call 4 tested: the 2^27 partition's steps and steady rate with the
# six-NTT quotient (partition-h200.md's command: "gpu ntt (h)" was 271.75 ms on the H200 with seven),
# then whole C2 proofs through the engine with 1 and 2 copies of H (PP_H_COPIES; call 2 on the H200: 14.77 and
# 14.34 s with seven).
set -u
t0=$SECONDS
( cd .devrun/cuda 2>/dev/null || { tar -C .devrun -xJf .devrun/cuda.tar.xz && cd .devrun/cuda; }
  export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
  { date -u; echo "commit $(cat commit.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  timeout 300 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0 --steady-gib 0 \
    --steady-partitions 10 27 > "$OUT/steady.log" 2>&1; echo "steady exit $? ($((SECONDS - t0)) s)"
  grep -E '^budget unl.*GPU time|gpu ntt|gpu msm|gpu spmv' "$OUT/steady.log" )
left=$((585 - SECONDS + t0))
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --h-copies ${PP_H_COPIES:-1,2}" PP_C2_LIMIT=$left bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

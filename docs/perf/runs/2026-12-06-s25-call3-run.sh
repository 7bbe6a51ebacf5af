#!/usr/bin/env bash
# Session 25, call 3, call 1's stage on the same machine: where three partitions together spend their
# time at 16 GiB on the card's own link (cuda_prover_bench --together prints the together phase's
# median steps, a shared MSM as a partition's share), beside the same budget one at a time.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
cd .devrun/cuda && export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
timeout 340 bin/cuda_prover_bench --lanes 2 --runs 1 --cpu-check-max-log 0 --vram-budgets-gib 0,16 --steady-gib 16 \
  --steady-partitions 9 --together 3 27 > "$OUT/together_steps.log" 2>&1
echo "exit $?"
grep -E "^budget|^  " "$OUT/together_steps.log" | tail -70

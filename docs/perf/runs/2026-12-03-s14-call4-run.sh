#!/usr/bin/env bash
# s14 call 4: steady-state throughput of the resident 2^27 key with two lanes (eb83f1d): 20
# partitions from two threads, the ramp left out (cuda_prover_bench budgets mode, unlimited budget).
set -u
t0=$SECONDS
tar -C /tmp -xJf .devstage/c3.tar.xz || exit 1
cd /tmp/c3 || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
date -u > "$OUT/env.txt"
timeout 400 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0 --steady-gib 0 \
  --steady-partitions 20 27 > "$OUT/steady.log" 2>&1; echo "steady exit $? ($((SECONDS-t0)) s)"
grep -E '^budget|^result|gpu total' "$OUT/steady.log"

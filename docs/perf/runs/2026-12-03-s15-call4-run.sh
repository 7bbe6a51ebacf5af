#!/usr/bin/env bash
# s15 call 4: the 2^27 partition and steady state, fused Fr reduction (new) against a6d0b91 (base), same call.
set -u
t0=$SECONDS
tar -C /tmp -xJf .devstage/p4.tar.xz || exit 1
cd /tmp/p4 || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
date -u > "$OUT/env.txt"
args=(--lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0 --steady-gib 0 --steady-partitions 10 27)
for v in new base; do
  b=bin/cuda_prover_bench; [ $v = base ] && b=bin/cuda_prover_bench_base
  left=$((440 - (SECONDS - t0))); [ $left -gt 220 ] && left=220
  echo "=== $v ${args[*]}" >> "$OUT/steady.log"
  timeout $left $b "${args[@]}" >> "$OUT/steady.log" 2>&1; echo "steady $v exit $? ($((SECONDS-t0)) s)"
done
grep -E '^===|^budget unl.*GPU time|gpu ntt|gpu spmv|gpu msm' "$OUT/steady.log"

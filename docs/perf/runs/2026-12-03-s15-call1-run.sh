#!/usr/bin/env bash
# s15 call 1: the partitions' compute turns (compute_turn.hpp) and packing before the workspace: the
# backend tests that cover them, then 2^27 steady state unlimited (two workspaces) and at 24 GiB (one
# workspace, two lanes), new build and base (eb83f1d) in the same call.
set -u
t0=$SECONDS
tar -C /tmp -xJf .devstage/t1.tar.xz || exit 1
cd /tmp/t1 || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$OUT/env.txt" 2>&1
for t in cuda_backend_test cuda_evaluation_test; do
  timeout 170 bin/$t >> "$OUT/tests.log" 2>&1; echo "test $t exit $? ($((SECONDS-t0)) s)" | tee -a "$OUT/tests.log"
done
grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|activity:' "$OUT/tests.log"
args=(--lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0,24 --steady-gib 0,24 --steady-partitions 16 27)
for v in new base; do
  b=bin/cuda_prover_bench; [ $v = base ] && b=bin/cuda_prover_bench_base
  left=$((590 - (SECONDS - t0))); [ $left -gt 240 ] && left=240
  echo "=== $v ${args[*]}" >> "$OUT/steady.log"
  timeout $left $b "${args[@]}" >> "$OUT/steady.log" 2>&1; echo "steady $v exit $? ($((SECONDS-t0)) s)"
done
grep -E '^===|^budget|pack witness|gpu witness' "$OUT/steady.log"

#!/usr/bin/env bash
# s16 call 2: the 2^27 partition and its steady state with the one-pass a*b - c*d (mont_dot_device.hpp).
set -u
t0=$SECONDS
stage=.devrun/cuda
[ -d $stage ] || tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
cd $stage || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; echo "commit $(cat commit.txt)"; cat dirty.txt; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$OUT/env.txt" 2>&1
timeout 500 bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 --vram-budgets-gib 0 --steady-gib 0 \
  --steady-partitions 10 27 > "$OUT/steady.log" 2>&1; echo "steady exit $? ($((SECONDS - t0)) s)"
grep -E '^budget unl.*GPU time|gpu ntt|gpu msm|gpu spmv' "$OUT/steady.log"

#!/usr/bin/env bash
# Session 25, call 4, call 1's stage (a fresh machine): what a streamed MSM's chunk size costs its
# kernels, at the card's own link: G1 2^26, witness-like split scalars (dense and packed) and random
# ones (plain, as H), k = 1 and 3 vectors, chunks of 2^22..2^25 points through 2 slots.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
cd .devrun/cuda && export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
cat commit.txt >> "$OUT/env.txt"
for c in 23 25 24 22; do
  timeout 75 bin/cuda_msm_vectors_bench g1:26 chunk=$c k=1,3 gib_s=0 > "$OUT/chunk$c.log" 2>&1
  echo "chunk $c exit $? ($((SECONDS - t0)) s)"
  grep -E "^\|" "$OUT/chunk$c.log" | tail -n +3
done

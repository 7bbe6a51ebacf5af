#!/usr/bin/env bash
# Session 27, call 2, on call 1's stage (0c29c64) and machine: whole C2 proofs through the engine,
# unlimited, 24 and 16 GiB, each at the card's own link and at 25 GiB/s, three partitions together.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "stage $(cat .devrun/cuda/commit.txt)" >> "$OUT/env.txt"
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --vram-gib 0,24,16 --h2d-gib-s 0,25 --together 3" \
  PP_C2_LIMIT=$((585 - (SECONDS - t0))) bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

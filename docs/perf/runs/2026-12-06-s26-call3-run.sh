#!/usr/bin/env bash
# Session 26, call 3, call 2's stages on the same machine: the MSM benchmark old then new
# (cuda_msm_bench 24 26 g2:24), then whole C2 proofs through the engine on the new stage: unlimited,
# 24 and 16 GiB, each at the card's own link and at 25 GiB/s, three partitions taken together.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
[ -d .devrun/old ] || { mkdir -p .devrun/old && tar -C .devrun/old -xJf .devstage/old.tar.xz; }
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/.devrun/cuda/lib:$PWD/.devrun/cuda/lib_cxx
for which in old new; do
  bin=.devrun/cuda/bin; [ $which = old ] && bin=.devrun/old/bin
  timeout 80 $bin/cuda_msm_bench 24 26 g2:24 > "$OUT/msm-$which.log" 2>&1
  echo "msm $which exit $? ($((SECONDS - t0)) s)"; grep -E "^\| (g1|g2) " "$OUT/msm-$which.log"
done
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --vram-gib 0,24,16 --h2d-gib-s 0,25 --together 3" \
  PP_C2_LIMIT=$((585 - (SECONDS - t0))) bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

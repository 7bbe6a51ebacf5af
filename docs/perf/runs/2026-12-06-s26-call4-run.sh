#!/usr/bin/env bash
# Session 26, call 4 (a fresh machine): the whole-wave rule narrowed to last waves at most a quarter
# full. cuda_msm_device_test on the new stage; the MSM benchmark old (dd151d5) then new
# (cuda_msm_bench 24 26 g2:24); then whole C2 proofs through the engine on the new stage: unlimited,
# 16 and 24 GiB, at 25 GiB/s and the card's own link, three partitions taken together, as many as
# the call's time allows.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
[ -d .devrun/old ] || { mkdir -p .devrun/old && tar -C .devrun/old -xJf .devstage/old.tar.xz; }
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
echo "new $(cat .devrun/cuda/commit.txt) old $(cat .devrun/old/commit.txt)" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/.devrun/cuda/lib:$PWD/.devrun/cuda/lib_cxx
timeout 200 .devrun/cuda/bin/cuda_msm_device_test > "$OUT/msm_device_test.log" 2>&1
echo "cuda_msm_device_test exit $? ($((SECONDS - t0)) s)"; tail -1 "$OUT/msm_device_test.log"
for which in old new; do
  bin=.devrun/cuda/bin; [ $which = old ] && bin=.devrun/old/bin
  timeout 80 $bin/cuda_msm_bench 24 26 g2:24 > "$OUT/msm-$which.log" 2>&1
  echo "msm $which exit $? ($((SECONDS - t0)) s)"; grep -E "^\| (g1|g2) " "$OUT/msm-$which.log"
done
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --vram-gib 0,16,24 --h2d-gib-s 25,0 --together 3" \
  PP_C2_LIMIT=$((450 - (SECONDS - t0))) bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

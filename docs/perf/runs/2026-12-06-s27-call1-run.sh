#!/usr/bin/env bash
# Session 27, call 1: every GPU test on the stage of 0c29c64 (a streamed split MSM's workspace holds
# one chunk's index lists; the witnesses' second upload under the last H MSM), then the backend's plan
# of the 2^27 PoRep key at 24 and 16 GiB (`proofpipe plan`, the kernels' 62 MiB) while time is left.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
echo "stage $(cat .devrun/cuda/commit.txt)" >> "$OUT/env.txt"
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"
export LD_LIBRARY_PATH=$PWD/.devrun/cuda/lib:$PWD/.devrun/cuda/lib_cxx
for gib in 24 16; do
  left=$((580 - (SECONDS - t0)))
  [ $left -gt 60 ] || break
  timeout $left .devrun/cuda/bin/proofpipe plan --porep-log 27 --budget-gib $gib --driver-mib 62 --link-gib-s 25 \
    > "$OUT/plan-$gib.log" 2>&1
  echo "plan $gib exit $? ($((SECONDS - t0)) s)"; grep -v "^\[" "$OUT/plan-$gib.log" | head -40
done
echo "all done ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# Session 26, call 2: the accumulation in whole waves (accumulate_chunk_for, ones_threads_for) against
# main before it (dd151d5's binaries, carried as .devstage/old.tar.xz), old then new, on one machine:
# cuda_msm_vectors_bench g1:26 chunk=23 k=1,3 gib_s=0 (a streamed split chunk's few blocks); then
# every GPU test on the new stage.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
mkdir -p .devrun/old && tar -C .devrun/old -xJf .devstage/old.tar.xz
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
echo "new $(cat .devrun/cuda/commit.txt) old $(cat .devrun/old/commit.txt)" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/.devrun/cuda/lib:$PWD/.devrun/cuda/lib_cxx
for which in old new; do
  bin=.devrun/cuda/bin; [ $which = old ] && bin=.devrun/old/bin
  timeout 100 $bin/cuda_msm_vectors_bench g1:26 chunk=23 k=1,3 gib_s=0 > "$OUT/vec23-$which.log" 2>&1
  echo "vec23 $which exit $? ($((SECONDS - t0)) s)"; grep -E "^\|" "$OUT/vec23-$which.log" | tail -n +3
done
bash scripts/device_run.sh device tests
echo "all done ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# Session 26, call 1: where a streamed split MSM's time goes, kernel by kernel (ncu's per-kernel
# summary of gpu__time_duration, clocks left alone), against the resident split MSM over the same
# size: cuda_msm_vectors_bench g1:26 chunk=23 k=3 (the 16 GiB plan's chunks, three partitions
# together) and cuda_msm_bench 26 (resident). Then the same two without the profiler, for the wall.
set -u
[ -d .devrun/cuda ] || tar -C .devrun -xJf .devrun/cuda.tar.xz
cd .devrun/cuda && export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib_cxx
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
cat commit.txt >> "$OUT/env.txt"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" | tee -a "$OUT/env.txt"
prof=("$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum --print-summary per-kernel
      --kernel-name-base function)
timeout 100 bin/cuda_msm_vectors_bench g1:26 chunk=23 k=1,3 gib_s=0 > "$OUT/vec23.log" 2>&1
echo "vec23 exit $? ($((SECONDS - t0)) s)"; grep -E "^\|" "$OUT/vec23.log" | tail -n +3
timeout 60 bin/cuda_msm_bench 26 > "$OUT/msm26.log" 2>&1
echo "msm26 exit $? ($((SECONDS - t0)) s)"; grep -E "2\^26|split" "$OUT/msm26.log" | head
timeout 200 "${prof[@]}" bin/cuda_msm_vectors_bench g1:26 chunk=23 k=3 gib_s=0 > "$OUT/vec23.ncu.txt" 2>&1
echo "vec23 ncu exit $? ($((SECONDS - t0)) s)"
timeout 150 "${prof[@]}" bin/cuda_msm_bench 26 > "$OUT/msm26.ncu.txt" 2>&1
echo "msm26 ncu exit $? ($((SECONDS - t0)) s)"
for f in vec23 msm26; do grep -E "^\s+[a-zA-Z_].*\(|Duration|Invocations" "$OUT/$f.ncu.txt" | head -5; done

#!/usr/bin/env bash
# Session 36, call 1: the inputs of issue 33's floor model (docs/perf/msm-h200.md, "Issue 33's aims
# against the floor"). cuda_arith_bench (Fp / Fp2 product, square and inverse, G1 / G2 XYZZ madd,
# the batch-affine floors); where one plain random MSM's time goes, kernel by kernel (ncu's
# per-launch gpu__time_duration, clocks and caches left alone, split into calls at the bench's
# fill_scalars by tools/ncu/call_sums.py: the 5 timed calls after the warm-up) for G1 2^24 and G2
# 2^24; the same MSMs and G1 2^26 without the profiler; then, as far as the call's LIMIT allows, G1
# 2^26 under the profiler, the forward NTT 2^27 and sppark 17278d7's MSMs and NTT.
set -u
st=.devstage/run
mkdir -p $st
for t in libs floor; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-590} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/env.txt"
echo "floor $(cat $st/floor/commit.txt) $(cat $st/floor/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
b=$st/floor/bin
timeout 150 $b/cuda_arith_bench > "$OUT/arith.log" 2>&1
echo "arith exit $? ($((SECONDS - t0)) s)"; sed -n '/^case/,$p' "$OUT/arith.log"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" | tee -a "$OUT/env.txt"
mkdir -p /tmp/ncu
profile() {  # one plain random MSM's kernels, the 5 timed calls after the warm-up
  local f=/tmp/ncu/msm-${1/:/}.csv
  timeout 150 "$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
    --launch-count 300 $b/cuda_msm_bench $1 > "$f" 2>&1
  echo "ncu $1 exit $? ($((SECONDS - t0)) s)"
  echo "== $1" >> "$OUT/calls.txt"
  python3 tools/ncu/call_sums.py "$f" fill_scalars 1 5 | tee -a "$OUT/calls.txt" | head -14
}
profile 24
profile g2:24
timeout 120 $b/cuda_msm_bench 24 26 g2:24 > "$OUT/msm.log" 2>&1
echo "msm exit $? ($((SECONDS - t0)) s)"; tail -14 "$OUT/msm.log"
# What is left of the call, if anything: 2^26 under the profiler, the NTT, the reference.
[ "$(left)" -gt 150 ] && profile 26
tar -C /tmp/ncu -cJf "$OUT/ncu-csv.tar.xz" .
if [ "$(left)" -gt 40 ]; then
  timeout 40 $b/cuda_ntt_bench 27 > "$OUT/ntt.log" 2>&1
  echo "ntt exit $? ($((SECONDS - t0)) s)"; tail -8 "$OUT/ntt.log"
fi
if [ "$(left)" -gt 60 ]; then
  timeout $(( $(left) - 5 )) $b/sppark_bench g1:24 g1:26 g2:24 ntt:27 > "$OUT/sppark.log" 2>&1
  echo "sppark exit $? ($((SECONDS - t0)) s)"; tail -8 "$OUT/sppark.log"
fi
cat "$OUT/env.txt"

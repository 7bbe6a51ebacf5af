#!/usr/bin/env bash
# Session 31, call 1: five partitions taken together (two groups per C2 proof instead of four) at 24
# and 16 GiB at the card's own link, main's binary, with the unlimited run these are measured against.
# Call 2 (next, same machine) runs main's k = 3 rows again as the same-machine baseline. First the MSM
# device tests of branch reduction-area (running_sum_buckets: the reduction's areas sized once).
set -u
st=.devstage/run
mkdir -p $st
for t in libs main area; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "main $(cat $st/main/commit.txt) area $(cat $st/area/commit.txt)" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout 200 $st/area/bin/cuda_msm_device_test > "$OUT/msm-device-test-area.log" 2>&1
echo "msm device tests (area) exit $? ($((SECONDS - t0)) s)"; tail -1 "$OUT/msm-device-test-area.log"
timeout $((580 - SECONDS + t0)) $st/main/bin/proofpipe bench --porep --proofs 2 --memory-mib 120000 --vram-gib 0,24,16 --h2d-gib-s 0 \
  --together 5 > "$OUT/c2-k5.log" 2>&1
echo "c2 k5 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run|together' "$OUT/c2-k5.log" | grep -v porep_step

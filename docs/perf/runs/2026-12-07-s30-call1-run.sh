#!/usr/bin/env bash
# Session 30, call 1: the batched reduction (branch batched-reduction, 3846cbe) on its first device.
# Its MSM device tests (the streamed ones: every curve; 2, 3 and 6 vectors, carried and plain), then whole C2
# proofs through the engine at 24 and 16 GiB at the card's own link, three partitions together,
# main's binary (3d727f1; main's src/ has not changed since) against the branch's on this machine,
# and main's unlimited run last (its porep_step lines: where the budgets' time goes).
set -u
st=.devstage/run
mkdir -p $st
for t in libs head red; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "head $(cat $st/head/commit.txt) red $(cat $st/red/commit.txt)" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout 200 $st/red/bin/cuda_msm_device_test > "$OUT/msm-device-test.log" 2>&1
rc=$?; echo "msm device tests exit $rc ($((SECONDS - t0)) s)"
grep -E "Streamed|FAILED|PASSED" "$OUT/msm-device-test.log" | grep -v "RUN" | tail -14
for which in red head; do
  [ $which = red ] && [ $rc != 0 ] && continue
  echo "=== $which" >> "$OUT/c2-$which.log"
  budgets=24,16 limit=230
  [ $which = head ] && budgets=24,16,0 limit=$((590 - (SECONDS - t0)))  # unlimited's step medians too
  timeout $limit $st/$which/bin/proofpipe bench --porep --proofs 2 --memory-mib 120000 --vram-gib $budgets \
    --h2d-gib-s 0 --together 3 >> "$OUT/c2-$which.log" 2>&1
  echo "c2 $which exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-$which.log"
done
echo "all done ($((SECONDS - t0)) s)"

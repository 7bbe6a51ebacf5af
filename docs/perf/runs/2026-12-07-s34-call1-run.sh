#!/usr/bin/env bash
# Session 34, call 1: the build that packs a group's witnesses one at a time, each next one under
# the GPU work of the one before (pk): the backend's device tests, then the own-link half of issue
# 34's table in one invocation (unlimited, 24 and 16 GiB; five together, three proofs, the key's
# share 0.7), a trace of each configuration. Device time left after the failed starts did not hold
# the whole table.
set -u
st=.devstage/run
mkdir -p $st
for t in libs pk; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-590} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "pk $(cat $st/pk/commit.txt) $(cat $st/pk/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout 150 $st/pk/bin/cuda_backend_test > "$OUT/backend-test.log" 2>&1
echo "backend test exit $? ($((SECONDS - t0)) s)"; tail -3 "$OUT/backend-test.log"
mkdir -p /tmp/tr
bench=($st/pk/bin/proofpipe bench --porep --proofs 3 --memory-mib 120000 --together 5 --together-wait-ms 20
       --key-memory-fraction 0.7)
timeout $(( $(left) - 15 )) "${bench[@]}" --vram-gib 0,24,16 --h2d-gib-s 0 --trace /tmp/tr/c2.json > "$OUT/c2-k5-own-link.log" 2>&1
echo "c2 k5 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-k5-own-link.log" | cut -c1-250
tar -C /tmp/tr -cf - . | xz -T8 -3 > "$OUT/traces.tar.xz"
ls -la "$OUT"; cat "$OUT/env.txt"

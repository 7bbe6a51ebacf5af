#!/usr/bin/env bash
# Session 33, call 1: issue 34's whole table, five together, with the bench's key share at 0.7 (what
# operations.md recommends on a 128 GiB host: ~9 partitions in flight instead of ~7, so that
# groups of five form where pairs did); then unlimited and 24 GiB at the own link with the old 0.75,
# the same binary on the same machine.
set -u
st=.devstage/run
mkdir -p $st
for t in libs kmf; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-590} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "kmf $(cat $st/kmf/commit.txt) $(cat $st/kmf/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
bench=($st/kmf/bin/proofpipe bench --porep --proofs 2 --memory-mib 120000 --together 5 --together-wait-ms 20)
timeout $(left) "${bench[@]}" --key-memory-fraction 0.7 --vram-gib 0,24,16 --h2d-gib-s 0,25 > "$OUT/c2-k5-kmf070.log" 2>&1
echo "kmf 0.70 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-k5-kmf070.log" | cut -c1-260
timeout $(left) "${bench[@]}" --key-memory-fraction 0.75 --vram-gib 0,24 > "$OUT/c2-k5-kmf075.log" 2>&1
echo "kmf 0.75 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-k5-kmf075.log" | cut -c1-260

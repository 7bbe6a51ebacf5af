#!/usr/bin/env bash
# Session 32, call 4: the same binary as calls 2-3, on the same warm machine: the whole table with five together. Call 2 was: the binary with wider matrix rows where the plan's workspace holds them
# (512 MiB row chunks at 16 GiB, the lane's bytes and slots unchanged), together_wait_ms 20, three
# together: the whole issue-34 table in one invocation (unlimited, 24 and 16 GiB, each at the
# device's own link and held to 25 GiB/s); then 16 GiB with every row chunk 256 MiB (main's plan)
# in the same call; then the backend's device tests of this build while time is left.
set -u
st=.devstage/run
mkdir -p $st
for t in libs wide; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-590} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "wide $(cat $st/wide/commit.txt) $(cat $st/wide/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
bench=($st/wide/bin/proofpipe bench --porep --proofs 2 --memory-mib 120000 --together 5 --together-wait-ms 20)
timeout $(left) "${bench[@]}" --vram-gib 0,24,16 --h2d-gib-s 0,25 > "$OUT/c2-k5-table.log" 2>&1
echo "c2 k5 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-k5-table.log"
grep -E 'matrices streamed' "$OUT/c2-k5-table.log" | head -2

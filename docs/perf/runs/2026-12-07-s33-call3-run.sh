#!/usr/bin/env bash
# Session 33, call 3: the same binary as call 2 on the same warm machine: issue 34's whole table in
# one invocation, five together, three proofs a configuration (the bench's default: the first
# proof's fill and the last group's drain weigh a third less than with two), the key's share of
# the host budget at the bench's new default of 0.7.
set -u
st=.devstage/run
mkdir -p $st
for t in libs rc; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-592} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "rc $(cat $st/rc/commit.txt) $(cat $st/rc/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
bench=($st/rc/bin/proofpipe bench --porep --proofs 3 --memory-mib 120000 --together 5 --together-wait-ms 20)
timeout $(left) "${bench[@]}" --vram-gib 0,24,16 --h2d-gib-s 0,25 > "$OUT/c2-k5-table.log" 2>&1
echo "c2 k5 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-k5-table.log" | cut -c1-250

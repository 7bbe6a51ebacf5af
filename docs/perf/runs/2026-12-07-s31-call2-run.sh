#!/usr/bin/env bash
# Session 31, call 2 (a fresh H100; ~230 s of device time left after its start; run as LIMIT=215): the binary of main
# with together_wait_ms (its workers wait up to 20 ms for more of the key before starting a short
# group) at 24 GiB, own link, three together: with the wait, then with --together-wait-ms 0 (main's
# behaviour before), in one invocation.
set -u
st=.devstage/run
mkdir -p $st
for t in libs wait; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "wait $(cat $st/wait/commit.txt)" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout "${LIMIT:-560}" $st/wait/bin/proofpipe bench --porep --proofs 2 --memory-mib 120000 --vram-gib 24 --h2d-gib-s 0 \
  --together 3 --together-wait-ms 20,0 > "$OUT/c2-wait.log" 2>&1
echo "c2 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-wait.log"

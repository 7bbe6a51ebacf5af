#!/usr/bin/env bash
# Session 33, call 2: the backend's device tests of the build whose refusal of too many partitions
# together is resource_exhausted (checked before anything is enqueued) and whose refusal of a
# resident plan stays failed_precondition.
set -u
st=.devstage/run
mkdir -p $st
for t in libs rc; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "rc $(cat $st/rc/commit.txt) $(cat $st/rc/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout 300 $st/rc/bin/cuda_backend_test > "$OUT/backend-test.log" 2>&1
echo "backend test exit $? ($((SECONDS - t0)) s)"; tail -3 "$OUT/backend-test.log"; cat "$OUT/env.txt"

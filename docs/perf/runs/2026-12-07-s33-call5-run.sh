#!/usr/bin/env bash
# Session 33, call 5 (run inline; this is its command): the same binary as calls 2-4 on the same
# warm machine: 24 GiB at the own link, eight together against five, the key's share at 0.66 so
# that ~10 partitions are in flight.
st=.devstage/run; export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx; mkdir -p $st; for t in libs rc; do tar -C $st -xJf .devstage/$t.tar.xz; done; nvidia-smi --query-gpu=name --format=csv,noheader; timeout 330 $st/rc/bin/proofpipe bench --porep --proofs 3 --memory-mib 120000 --together-wait-ms 20 --vram-gib 24 --together 8,5 --key-memory-fraction 0.66 > $OUT/c2-k8.log 2>&1; echo "exit $?"; grep -E "^porep_run|^porep_step.*msm L" $OUT/c2-k8.log | cut -c1-250

#!/usr/bin/env bash
# Session 34, call 2: the same build (pk) on the same warm H100 as call 1, with the ~200 s of device
# time left: the 25 GiB/s half of the table at 24 and 16 GiB (the 16 GiB row was cut by the limit;
# the unlimited row at 25 GiB/s was not run: call 1's own-link unlimited row stands for it).
st=.devstage/run; export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout 200 $st/pk/bin/proofpipe bench --porep --proofs 3 --memory-mib 120000 --together 5 --together-wait-ms 20 \
  --key-memory-fraction 0.7 --vram-gib 24,16 --h2d-gib-s 25 > $OUT/c2-k5-25.log 2>&1
echo "exit $?"; grep -E '^porep_run' $OUT/c2-k5-25.log | cut -c1-250

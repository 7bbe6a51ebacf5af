#!/usr/bin/env bash
# Session 30, call 2, on call 1's machine and stage (warm; the session had ~540 s of device time
# left): the branch's binary (3846cbe, the batched reduction) at 24 and 16 GiB and unlimited with the
# link held to 25 GiB/s; then 16 GiB with 512 MiB matrix row chunks at both links, against call 1's
# and this call's rows without them. Passed to the device as one command line; this file is that line.
set -u; st=.devstage/run; export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx; t0=$SECONDS; b=$st/red/bin/proofpipe; timeout 250 $b bench --porep --proofs 2 --memory-mib 120000 --vram-gib 24,16,0 --h2d-gib-s 25 --together 3 > $OUT/c2-red-25.log 2>&1; echo "exit $? $((SECONDS-t0)) s"; grep ^porep_run $OUT/c2-red-25.log; timeout $((470-(SECONDS-t0))) $b bench --porep --proofs 2 --memory-mib 120000 --vram-gib 16 --h2d-gib-s 0,25 --together 3 --matrix-chunk-mib 512 > $OUT/c2-red-rows512.log 2>&1; echo "exit $? $((SECONDS-t0)) s"; grep ^porep_run $OUT/c2-red-rows512.log

#!/usr/bin/env bash
# Session 31, call 3, on call 2's machine and stage (warm; 203 s of device time left): the same binary's
# unlimited run, the baseline call 2's two rows are measured against. Passed to the device as one
# command line; this file is that line.
st=.devstage/run; export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx; timeout 185 $st/wait/bin/proofpipe bench --porep --proofs 2 --memory-mib 120000 --vram-gib 0 --h2d-gib-s 0 --together 3 > $OUT/c2-unlimited.log 2>&1; echo "exit $?"; grep ^porep_run $OUT/c2-unlimited.log

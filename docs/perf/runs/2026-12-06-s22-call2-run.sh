#!/usr/bin/env bash
# Session 22, call 2, the same stage as call 1 (whose GPU tests passed): whole PoRep C2 proofs on
# the H200 through the engine (never run on an H200 before), with 1, 2 and 4 copies of H's points
# (engine.gpu_h_copies: the plan keeps what the region holds beside the key and two workspaces).
set -u
t0=$SECONDS
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --h-copies 1,2,4" PP_C2_LIMIT=575 bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# Session 25, call 1: every GPU test on this stage (partition_launch and cuda_backend check a batch's
# residency with together_plan's resident_shared_table, the backend before it packs the witnesses;
# session 24's engine and plan changes had not run on a GPU), the no-GPU skip path; then whole C2
# proofs through the engine, unlimited, at the card's own link and at 25 GiB/s (the baseline for
# call 2's budgets, on the same machine).
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"
left=$((570 - SECONDS + t0))
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --vram-gib 0 --h2d-gib-s 0,25" PP_C2_LIMIT=$left \
  bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

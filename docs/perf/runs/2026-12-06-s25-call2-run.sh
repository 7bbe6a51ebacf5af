#!/usr/bin/env bash
# Session 25, call 2, call 1's stage on the same machine: whole C2 proofs through the engine at VRAM
# budgets of 24 and 16 GiB, each at the card's own link and at 25 GiB/s (PCIe 4.0), three partitions
# of a key taken together per streamed copy (engine.partitions_together = 3) and one at a time.
set -u
t0=$SECONDS
PP_C2_ARGS="--proofs 2 --memory-mib 120000 --vram-gib 24,16 --h2d-gib-s 0,25 --together 3,1" PP_C2_LIMIT=585 \
  bash scripts/device_run.sh device c2
echo "all done ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# Session 23, call 4: 2^27 PoRep-shaped partitions under budgets of unlimited, 24 and 16 GiB, each at
# the card's own link and at 25 GiB/s (PCIe 4.0), a C2 proof's 10 partitions on two lanes per row,
# then at 24 and 16 GiB the same 10 again three at a time through cuda_backend::start_together (the
# streamed copies of L, A, B_G1 and B_G2 shared by the three): vram-budgets.json rows with
# partitions_together 1 and 3. The backend test of partitions together first.
set -u
t0=$SECONDS
PP_BACKEND_FILTER='*PartitionsTogether*' PP_SPMV_FILTER='-*' PP_BUDGET_RUNS=1 PP_BUDGETS=0,24,16 \
  PP_BUDGET_ARGS='--h2d-gib-s 0,25 --steady-gib 0,24,16 --steady-partitions 10 --together 3' \
  bash scripts/device_run.sh device budgets 27
echo "budgets done ($((SECONDS - t0)) s)"

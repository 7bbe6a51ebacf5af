#!/usr/bin/env bash
# Session 23, call 5 (the session's last device seconds): at 25 GiB/s only, unlimited and 16 GiB,
# the C2 proof's 10 partitions five at a time (two start_together calls of 5: one copy of L, A,
# B_G1 and B_G2 for five partitions).
set -u
t0=$SECONDS
PP_BACKEND_FILTER='-*' PP_SPMV_FILTER='-*' PP_BUDGET_RUNS=1 PP_BUDGETS=0,16 \
  PP_BUDGET_ARGS='--h2d-gib-s 25 --steady-gib 0,16 --steady-partitions 10 --together 5' \
  timeout 265 bash scripts/device_run.sh device budgets 27
echo "budgets done ($((SECONDS - t0)) s)"

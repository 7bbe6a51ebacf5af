#!/usr/bin/env bash
# Session 23, call 2, on call 1's stage (msm_streamed_vectors; every streamed MSM now runs through
# the vector-state path): every GPU test (the backend's proofs against the CPU's, resident, streamed
# and with matrices in turns; the C ABI's evaluation path), the no-GPU skip path.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"

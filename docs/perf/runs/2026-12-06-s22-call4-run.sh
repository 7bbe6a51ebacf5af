#!/usr/bin/env bash
# Session 22, call 4, on the stage of s22 at the six-NTT quotient (h's coefficients from the coset
# iNTT of A B and c's plain iNTT; 7 -> 6 transforms for bellperson keys): every GPU test (the
# backend's proofs against the CPU's, resident, streamed and with matrices in turns; the C ABI's
# evaluation path), the no-GPU skip path.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"

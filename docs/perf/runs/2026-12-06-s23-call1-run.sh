#!/usr/bin/env bash
# Session 23, call 1: several scalar vectors over one streamed table (msm_streamed_vectors: each
# chunk of points copied once for k partitions' scalars, dense or packed witnesses): the streamed
# MSM tests (StreamedVectorsMatchHost, StreamedVectorsRefuse and the streamed / carried cases
# around them), then cuda_msm_vectors_bench at its defaults (G1 2^26 split and plain, G2 2^25 split;
# chunks of 2^23, 2 slots; k = 1..4; the card's link and 25 GiB/s).
set -u
t0=$SECONDS
bash scripts/device_run.sh device vectors
echo "vectors done ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# Session 23, call 3, on the stage of the partitions-together change (cuda_backend::start_together,
# partition_launch's run_partitions_together, vector states that may hold fewer buckets): every GPU
# test (CudaBackend.PartitionsTogetherMatchOneByOne among them), the no-GPU skip path.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
echo "tests done ($((SECONDS - t0)) s)"

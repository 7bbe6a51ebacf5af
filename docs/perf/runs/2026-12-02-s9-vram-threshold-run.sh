#!/usr/bin/env bash
# s9 vram call 2 (gather only below 35% nonzero, counts by reduction): the streamed MSM tests, two
# streamed backend tests, then 2^27 unlimited and 24 GiB. Run from .devstage/vram; logs under $OUT.
set -u
cd "$(dirname "$0")"
t0=$SECONDS
here="$PWD"
stage="$here/.devrun/cuda"
rm -rf "$stage"; tar -C "$here/.devrun" -xJf "$here/.devrun/cuda.tar.xz" || exit 1
(
  cd "$stage" || exit 1
  export LD_LIBRARY_PATH="$stage/lib"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$stage/lib_cxx"; fi
  timeout 20 bin/cuda_msm_plan_test >"$OUT/msm-tests.log" 2>&1; echo "cuda_msm_plan_test exit $?" | tee -a "$OUT/msm-tests.log"
  timeout 90 bin/cuda_msm_device_test --gtest_filter='*Streamed*:*SelectedSplit*' >>"$OUT/msm-tests.log" 2>&1
  echo "cuda_msm_device_test exit $?" | tee -a "$OUT/msm-tests.log"
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|mismatch' "$OUT/msm-tests.log"
)
echo "msm tests done at $((SECONDS - t0)) s"
PP_BACKEND_FILTER='CudaBackend.StreamedKeysUnderTinyBudgetsMatchCpu:CudaBackend.StreamedMatricesUnderTheLeastBudgetMatchCpu' \
  PP_SPMV_FILTER='-*' PP_BUDGET_RUNS=2 PP_BUDGETS=0,24 PP_BUDGET_ARGS='--lanes-per-thread 1' \
  bash scripts/device_run.sh device budgets 27
echo "2^27 done at $((SECONDS - t0)) s"

#!/usr/bin/env bash
# s9 vram (gathered streamed chunks): MSM tests, then the budget tests and 2^27 budgets, then 2^26
# if time is left. Run from /work/main/.devstage/vram on the device machine; logs under $OUT.
set -u
cd "$(dirname "$0")"
t0=$SECONDS
here="$PWD"
stage="$here/.devrun/cuda"
[ -d "$stage" ] || tar -C "$here/.devrun" -xJf "$here/.devrun/cuda.tar.xz" || exit 1
(
  cd "$stage" || exit 1
  export LD_LIBRARY_PATH="$stage/lib"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$stage/lib_cxx"; fi
  timeout 20 bin/cuda_msm_plan_test >"$OUT/msm-tests.log" 2>&1; echo "cuda_msm_plan_test exit $?" | tee -a "$OUT/msm-tests.log"
  timeout 150 bin/cuda_msm_device_test >>"$OUT/msm-tests.log" 2>&1; echo "cuda_msm_device_test exit $?" | tee -a "$OUT/msm-tests.log"
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|mismatch' "$OUT/msm-tests.log"
)
echo "msm tests done at $((SECONDS - t0)) s"
PP_BACKEND_FILTER='*' PP_SPMV_FILTER='SpmvDevice.SpmvOne*' PP_BUDGET_RUNS=3 PP_BUDGETS=0,24,16 \
  PP_BUDGET_ARGS='--lanes-per-thread 1' bash scripts/device_run.sh device budgets 27
echo "2^27 done at $((SECONDS - t0)) s"
if [ $((SECONDS - t0)) -lt 400 ]; then
  mkdir -p "$OUT/b26"
  OUT="$OUT/b26" PP_BACKEND_FILTER='-*' PP_SPMV_FILTER='-*' PP_BUDGET_RUNS=2 PP_BUDGETS=0,16 \
    PP_BUDGET_ARGS='--lanes-per-thread 1' timeout $((585 - (SECONDS - t0))) bash scripts/device_run.sh device budgets 26
  echo "2^26 done at $((SECONDS - t0)) s"
fi

#!/usr/bin/env bash
# Every GPU test and benchmark in one `run` call on a lent GPU machine, building nothing there.
#   scripts/device_run.sh build    here: build the CUDA targets (sm_90, static cudart) into build/cuda
#                                  and stage binaries + the shared libraries they need in .devrun/cuda
#   scripts/device_run.sh device   there: run the gpu tests (and the no-GPU skip path), then the
#                                  benchmarks; logs under $OUT (at most 8 files come back)
# The run tool call, from the repository root after `build`:
#   run(command="bash scripts/device_run.sh device", carry=[".devrun/cuda"], timeout_s=600)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stage="$here/.devrun/cuda"
build_dir="${PP_BUILD_DIR:-$here/build/cuda}"
tests=(cuda_device_info_test cuda_field_test cuda_curve_test cuda_ntt_device_test cuda_spmv_device_test
       cuda_device_memory_test cuda_msm_device_test cuda_backend_test)
benches=(cuda_arith_bench cuda_ntt_bench cuda_spmv_bench cuda_msm_bench cuda_prover_bench)
# Seconds each may take there (the call has 600 in all).
declare -A limit=([cuda_device_info_test]=20 [cuda_field_test]=60 [cuda_curve_test]=90 [cuda_ntt_device_test]=90
                  [cuda_spmv_device_test]=120 [cuda_device_memory_test]=30 [cuda_msm_device_test]=120
                  [cuda_backend_test]=150 [cuda_arith_bench]=40 [cuda_ntt_bench]=60 [cuda_spmv_bench]=90
                  [cuda_msm_bench]=120 [cuda_prover_bench]=150)
# Arguments of the benchmarks whose defaults take too long for one call.
declare -A args=([cuda_spmv_bench]="20 24" [cuda_prover_bench]="--setup-max-log 20 20 24")

build() {
  set -e
  cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build "$build_dir" --target "${tests[@]}" "${benches[@]}" -j"${PP_JOBS:-2}"
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx"
  for t in "${tests[@]}"; do cp "$build_dir/tests/cuda/$t" "$stage/bin/"; done
  for b in "${benches[@]}"; do cp "$build_dir/bench/cuda/$b" "$stage/bin/"; done
  # Shared libraries the device image lacks (spdlog, fmt, tbb, gmp, ...): all that ldd resolves except
  # the C/C++ runtime, which the image has; this build's C++ runtime goes along in case it is older.
  for f in "$stage"/bin/*; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$(g++ -print-file-name=libgcc_s.so.1)" "$stage/lib_cxx/"
  git -C "$here" rev-parse HEAD >"$stage/commit.txt"
  git -C "$here" status --short --untracked-files=no >"$stage/dirty.txt"
  du -sh "$stage"
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  cd "$stage" || exit 1
  export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$stage/lib_cxx"; fi
  { date -u; echo "commit $(cat commit.txt)"; echo "modified:"; cat dirty.txt; nproc
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  } >"$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  local failed=0
  for t in "${tests[@]}"; do
    timeout "${limit[$t]}" "bin/$t" >>"$OUT/tests.log" 2>&1
    local rc=$?
    echo "test $t exit $rc" | tee -a "$OUT/tests.log"
    [ $rc -eq 0 ] || failed=1
  done
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_device_info_test >/dev/null 2>&1
  local rc=$?
  echo "skip path exit $rc (want 77)" | tee -a "$OUT/tests.log"
  [ $rc -eq 77 ] || failed=1
  grep -E '^\[  (PASSED|FAILED) ' "$OUT/tests.log"
  for b in "${benches[@]}"; do
    echo "=== $b" >>"$OUT/bench.log"
    # shellcheck disable=SC2086
    timeout "${limit[$b]}" "bin/$b" ${args[$b]:-} >>"$OUT/bench.log" 2>&1
    echo "bench $b exit $?" | tee -a "$OUT/bench.log"
  done
  return $failed
}

cmd="${1:?usage: device_run.sh build|device}"
"$cmd"

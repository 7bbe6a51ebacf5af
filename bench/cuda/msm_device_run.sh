#!/usr/bin/env bash
# The GPU MSM's device run in one `run` call (tests, then the benchmark), building nothing there.
#   bench/cuda/msm_device_run.sh build    here: build cuda_msm_device_test and cuda_msm_bench into
#                                         build/gpu-msm, gather them and their .so files in .devrun/msm
#   bench/cuda/msm_device_run.sh device   there: run both, logs under $OUT
# run(command="bash bench/cuda/msm_device_run.sh device", carry=[".devrun/msm"], timeout_s=420)
set -uo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
stage="$here/.devrun/msm"

build() {
  set -e
  cmake -S "$here" -B "$here/build/gpu-msm" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$here/build/gpu-msm" --target cuda_msm_device_test cuda_msm_bench -j1
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx"
  cp "$here/build/gpu-msm/tests/cuda/cuda_msm_device_test" "$here/build/gpu-msm/bench/cuda/cuda_msm_bench" "$stage/bin/"
  for f in "$stage"/bin/*; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$(g++ -print-file-name=libgcc_s.so.1)" "$stage/lib_cxx/"
  git -C "$here" rev-parse HEAD >"$stage/commit.txt"
  du -sh "$stage"
}

device() {
  : "${OUT:?}"
  cd "$stage" || exit 1
  export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$stage/lib_cxx"; fi
  { date -u; echo "commit $(cat commit.txt) + uncommitted MSM sources";
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; } >"$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_msm_device_test >/dev/null 2>&1; echo "skip path exit $? (want 77)"
  timeout "${PP_TEST_LIMIT:-200}" bin/cuda_msm_device_test --gtest_output="xml:$OUT/msm_test.xml" >"$OUT/msm_test.log" 2>&1
  echo "test exit $?" | tee -a "$OUT/msm_test.log"
  grep -E "^\[ +(OK|FAILED|PASSED) |mismatch|Failure|seed|checked|tests ran" "$OUT/msm_test.log" | head -60
  timeout "${PP_BENCH_LIMIT:-180}" bin/cuda_msm_bench ${PP_BENCH_ARGS:-} 2>&1 | tee "$OUT/msm_bench.log"
  echo "bench exit ${PIPESTATUS[0]}"
}

"$@"

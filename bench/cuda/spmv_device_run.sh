#!/usr/bin/env bash
# The GPU SpMV's device run in one `run` call (tests, skip path, benchmark), building nothing there.
#   bench/cuda/spmv_device_run.sh build    here: build cuda_spmv_device_test, cuda_device_memory_test and
#                                          cuda_spmv_bench into build/gpu-spmv, gather them and their
#                                          .so files in .devrun/spmv
#   bench/cuda/spmv_device_run.sh device   there: run them, logs under $OUT
# run(command="bash bench/cuda/spmv_device_run.sh device", carry=[".devrun/spmv"], timeout_s=420)
set -uo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
stage="$here/.devrun/spmv"

build() {
  set -e
  cmake -S "$here" -B "$here/build/gpu-spmv" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$here/build/gpu-spmv" --target cuda_spmv_device_test cuda_device_memory_test cuda_spmv_bench -j1
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx"
  cp "$here/build/gpu-spmv/tests/cuda/cuda_spmv_device_test" "$here/build/gpu-spmv/tests/cuda/cuda_device_memory_test" \
     "$here/build/gpu-spmv/bench/cuda/cuda_spmv_bench" "$stage/bin/"
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
  { date -u; echo "commit $(cat commit.txt) + uncommitted SpMV sources"; nproc;
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; } >"$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  timeout 60 bin/cuda_device_memory_test >"$OUT/device_memory_test.log" 2>&1
  echo "device_memory_test exit $?" | tee -a "$OUT/device_memory_test.log"
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure|error" "$OUT/device_memory_test.log" | head -20
  timeout 200 bin/cuda_spmv_device_test >"$OUT/spmv_test.log" 2>&1
  echo "spmv_test exit $?" | tee -a "$OUT/spmv_test.log"
  grep -E "^\[ +(OK|FAILED|PASSED) |mismatch|seed|synthetic|generated|Failure" "$OUT/spmv_test.log" | head -40
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_spmv_device_test >/dev/null 2>&1; echo "skip path exit $? (want 77)"
  timeout 200 bin/cuda_spmv_bench ${BENCH_LOGS:-20 24} 2>&1 | tee "$OUT/spmv_bench.log"
  echo "bench exit ${PIPESTATUS[0]}"
}

cmd="$1"; shift; "$cmd" "$@"

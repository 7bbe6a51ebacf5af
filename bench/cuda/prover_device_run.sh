#!/usr/bin/env bash
# The CUDA Groth16 backend's device run in one `run` call (test, skip path, benchmark), building nothing there.
#   bench/cuda/prover_device_run.sh build    here: build cuda_backend_test and cuda_prover_bench into
#                                            build/gpu-prover, gather them and their .so files in .devrun/prover
#   bench/cuda/prover_device_run.sh device   there: run them, logs under $OUT
# run(command="bash bench/cuda/prover_device_run.sh device", carry=[".devrun/prover"], timeout_s=420)
# Environment (device): TEST_TIMEOUT (s, default 170), BENCH_ARGS (default "--setup-max-log 20 20 24").
set -uo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
stage="$here/.devrun/prover"

build() {
  set -e
  cmake -S "$here" -B "$here/build/gpu-prover" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$here/build/gpu-prover" --target cuda_backend_test cuda_prover_bench -j1
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx"
  cp "$here/build/gpu-prover/tests/cuda/cuda_backend_test" "$here/build/gpu-prover/bench/cuda/cuda_prover_bench" \
     "$stage/bin/"
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
  { date -u; echo "commit $(cat commit.txt) + uncommitted prover sources"; nproc;
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; } >"$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_backend_test >/dev/null 2>&1; echo "skip path exit $? (want 77)"
  timeout "${TEST_TIMEOUT:-170}" bin/cuda_backend_test >"$OUT/backend_test.log" 2>&1
  echo "backend_test exit $?" | tee -a "$OUT/backend_test.log"
  grep -E "^\[ +(OK|FAILED|PASSED) |differs|Failure|Expected|Which|m = |2\^16|error" "$OUT/backend_test.log" | head -60
  # shellcheck disable=SC2086
  timeout "${BENCH_TIMEOUT:-220}" bin/cuda_prover_bench ${BENCH_ARGS:---setup-max-log 20 20 24} 2>&1 | tee "$OUT/prover_bench.log"
  echo "bench exit ${PIPESTATUS[0]}"
}

cmd="$1"; shift; "$cmd" "$@"

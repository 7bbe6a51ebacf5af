#!/usr/bin/env bash
# The GPU NTT's device run in one `run` call (tests, then the benchmark), building nothing there.
#   bench/cuda/ntt_device_run.sh build    here: build cuda_ntt_device_test and cuda_ntt_bench into
#                                         build/gpu-ntt, gather them and their .so files in .devrun/ntt
#   bench/cuda/ntt_device_run.sh device   there: run both, logs under $OUT
# run(command="bash bench/cuda/ntt_device_run.sh device", carry=[".devrun/ntt"], timeout_s=420)
set -uo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
stage="$here/.devrun/ntt"

build() {
  set -e
  cmake -S "$here" -B "$here/build/gpu-ntt" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$here/build/gpu-ntt" --target cuda_ntt_device_test cuda_ntt_bench -j1
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx"
  cp "$here/build/gpu-ntt/tests/cuda/cuda_ntt_device_test" "$here/build/gpu-ntt/bench/cuda/cuda_ntt_bench" "$stage/bin/"
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
  { date -u; echo "commit $(cat commit.txt) + uncommitted NTT sources";
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; } >"$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  timeout 200 bin/cuda_ntt_device_test --gtest_output="xml:$OUT/ntt_test.xml" >"$OUT/ntt_test.log" 2>&1
  echo "test exit $?" | tee -a "$OUT/ntt_test.log"
  grep -E "^\[ +(OK|FAILED|PASSED) |mismatch|seed|tests ran" "$OUT/ntt_test.log" | head -40
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_ntt_device_test >/dev/null 2>&1; echo "skip path exit $? (want 77)"
  timeout 150 bin/cuda_ntt_bench 2>&1 | tee "$OUT/ntt_bench.log"
  echo "bench exit ${PIPESTATUS[0]}"
}

"$@"

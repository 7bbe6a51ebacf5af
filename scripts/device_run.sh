#!/usr/bin/env bash
# Runs the CUDA tests and benchmarks on a lent GPU machine in one `run` call, building nothing there.
#   scripts/device_run.sh build    here: build the CUDA targets (sm_90, static cudart) into build/cuda
#                                  and gather binaries + the shared libraries they need into .devrun/cuda
#   scripts/device_run.sh device   there: run the gpu tests, the skip-path check and the benchmark,
#                                  writing logs under $OUT (at most 8 files come back)
# The run tool call (from the repository root, after `build`):
#   run(command="bash scripts/device_run.sh device", carry=[".devrun/cuda"], timeout_s=400)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stage="$here/.devrun/cuda"
tests=(cuda_device_info_test cuda_field_test cuda_curve_test)
benches=(cuda_arith_bench)

build() {
  set -e
  cmake -S "$here" -B "$here/build/cuda" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build "$here/build/cuda" --target "${tests[@]}" "${benches[@]}" -j"${PP_JOBS:-1}"
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib"
  for t in "${tests[@]}"; do cp "$here/build/cuda/tests/cuda/$t" "$stage/bin/"; done
  for b in "${benches[@]}"; do cp "$here/build/cuda/bench/cuda/$b" "$stage/bin/"; done
  # Shared libraries the device image lacks (spdlog, fmt, benchmark, ...): everything ldd resolves
  # except the C/C++ runtime, which the device image has in a newer version.
  for f in "$stage"/bin/*; do
    ldd "$f" | awk '/=> \//{print $3}'
  done | sort -u | grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  # The C++ runtime of this build, used there only if the image's own is missing or older.
  mkdir -p "$stage/lib_cxx"
  cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$(g++ -print-file-name=libgcc_s.so.1)" "$stage/lib_cxx/"
  git -C "$here" rev-parse HEAD >"$stage/commit.txt"
  du -sh "$stage"
  ls -l "$stage/bin" "$stage/lib"
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  cd "$stage" || exit 1
  export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$stage/lib_cxx"
    echo "using the carried C++ runtime (lib_cxx)"
  fi
  {
    date -u
    echo "commit $(cat commit.txt)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  } >"$OUT/env.txt" 2>&1
  local failed=0
  declare -A limit=([cuda_device_info_test]=30 [cuda_field_test]=100 [cuda_curve_test]=170)
  for t in "${tests[@]}"; do
    echo "=== $t" | tee -a "$OUT/tests.log"
    timeout "${limit[$t]:-120}" "bin/$t" --gtest_output="xml:$OUT/$t.xml" >>"$OUT/tests.log" 2>&1
    local rc=$?
    echo "=== $t exit $rc" | tee -a "$OUT/tests.log"
    [ $rc -eq 0 ] || failed=1
  done
  echo "=== skip path (CUDA_VISIBLE_DEVICES=-1)" | tee -a "$OUT/tests.log"
  CUDA_VISIBLE_DEVICES=-1 bin/cuda_device_info_test >>"$OUT/tests.log" 2>&1
  local rc=$?
  echo "=== skip path exit $rc (want 77)" | tee -a "$OUT/tests.log"
  [ $rc -eq 77 ] || failed=1
  grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED' "$OUT/tests.log"
  for b in "${benches[@]}"; do
    timeout 60 "bin/$b" >"$OUT/bench.log" 2>&1
    echo "=== $b exit $?" >>"$OUT/bench.log"
  done
  # A second benchmark run: the spread between runs bounds what a difference between versions means.
  timeout 60 "bin/${benches[0]}" >"$OUT/bench2.log" 2>&1
  # Instruction mix (full SASS mnemonics) of the Fp / Fr multiplication (K = 1) and G1 madd kernels.
  if command -v cuobjdump >/dev/null; then
    cuobjdump --dump-sass "bin/${benches[0]}" >"$stage/sass.txt" 2>&1
    for pat in 'mul_chains.*fp_params.*Li1E' 'mul_chains.*fr_params.*Li1E' 'madd_chainsILb0ELi256ELi1E'; do
      echo "== $pat"
      awk -v pat="$pat" '/Function :/{f = ($0 ~ pat)} f && /\/\*[0-9a-f]+\*\//{
             for (i = 1; i <= NF; i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/) { n[$i]++; break } }
           END { for (k in n) print n[k], k }' "$stage/sass.txt" | sort -rn
    done >"$OUT/sass_mix.txt"
  fi
  cat "$OUT/env.txt"
  cat "$OUT/bench.log"
  grep -E "^(fp_mul|fr_mul|g1_)" "$OUT/bench2.log"
  return $failed
}

case "${1:-}" in
  build) build ;;
  device) device ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac

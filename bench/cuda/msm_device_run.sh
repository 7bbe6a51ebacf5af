#!/usr/bin/env bash
# The MSM work's device call (docs/perf/msm-h200.md): GPU==CPU tests of the MSM and of the partitions
# that use it, the MSM and partition benchmarks, the key read, and the reference library's MSM and
# NTT benchmarks in the same call, so that every ratio comes from one run.
#   bench/cuda/msm_device_run.sh build DIR   here: build the targets (sm_90) into build/cuda and stage
#                                            them with their shared libraries as DIR/msm.tar.xz;
#                                            PP_REF_BENCH names the reference benchmark binary, built
#                                            outside this tree, which goes along
#   DIR/msm_device_run.sh device             there (a copy of this script beside the tarball): logs
#                                            and a summary under $OUT
# The run tool call: run(command="bash .devstage/msm/msm_device_run.sh device", carry=[".devstage/msm"]).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tests=(cuda_msm_plan_test cuda_msm_device_test cuda_backend_test)
benches=(cuda_msm_bench cuda_prover_bench)

build() {
  set -e
  local out="${1:?usage: msm_device_run.sh build DIR}" root build_dir stage
  root="$(cd "$here/../.." && pwd)"
  build_dir="${PP_BUILD_DIR:-$root/build/cuda}"
  stage="$(mktemp -d)/msm"
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build "$build_dir" --target "${tests[@]}" "${benches[@]}" formats_params_read_bench -j"${PP_JOBS:-2}"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx" "$out"
  for t in "${tests[@]}"; do cp "$build_dir/tests/cuda/$t" "$stage/bin/"; done
  for b in "${benches[@]}"; do cp "$build_dir/bench/cuda/$b" "$stage/bin/"; done
  cp "$build_dir/bench/formats/formats_params_read_bench" "$stage/bin/"
  if [ -n "${PP_REF_BENCH:-}" ]; then cp "$PP_REF_BENCH" "$stage/bin/ref_bench"; fi
  for f in "$stage"/bin/*; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$(g++ -print-file-name=libgcc_s.so.1)" "$stage/lib_cxx/"
  git -C "$root" rev-parse HEAD >"$stage/commit.txt"
  git -C "$root" status --short >"$stage/dirty.txt"
  strip --strip-unneeded "$stage"/bin/* "$stage"/lib/* 2>/dev/null || true
  tar -C "$(dirname "$stage")" -cf - msm | xz -T2 -6 >"$out/msm.tar.xz"
  cp "$here/msm_device_run.sh" "$out/"
  du -sh "$out/msm.tar.xz"
}

# step NAME LIMIT_S CMD...: runs CMD with a time limit, output to $OUT/NAME.log, and notes its exit.
step() {
  local name="$1" limit="$2"
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >>"$OUT/$name.log" 2>&1
  local rc=$?
  echo "$name: $* exit $rc ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
  return $rc
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  local stage=/tmp/msm_stage
  rm -rf "$stage" && mkdir -p "$stage" && tar -C "$stage" -xJf "$here/msm.tar.xz" || exit 1
  cd "$stage/msm" || exit 1
  export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/lib_cxx"; fi
  { date -u; echo "commit $(cat commit.txt)"; echo "modified:"; cat dirty.txt; nproc
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  } >"$OUT/env.txt" 2>&1
  local failed=0
  step tests 10 bin/cuda_msm_plan_test || failed=1
  step tests 200 bin/cuda_msm_device_test || failed=1
  # The partition pipeline through the changed split MSM: resident and streamed keys against the CPU.
  step tests 150 bin/cuda_backend_test --gtest_filter='*Streamed*:*SmallCircuits*:*PoRepLike*' || failed=1
  step msm 150 bin/cuda_msm_bench 24 26 27 g2:24 g2:25
  if [ -x bin/ref_bench ]; then step ref 100 bin/ref_bench g1:24 g1:26 g2:24 g1host:24 ntt:27; fi
  step read 120 bin/formats_params_read_bench 24 27 runs=1
  step partition 240 bin/cuda_prover_bench --lanes 1 --runs 3 --cpu-check-max-log 0 27
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|mismatch' "$OUT/tests.log"
  grep -hE '^\| |^result |key upload|gpu total|^msm|^lanes' "$OUT"/msm.log "$OUT"/ref.log "$OUT"/read.log \
    "$OUT"/partition.log 2>/dev/null
  cat "$OUT/summary.txt"
  return $failed
}

cmd="${1:?usage: msm_device_run.sh build DIR | device}"
shift
"$cmd" "$@"

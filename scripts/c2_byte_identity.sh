#!/usr/bin/env bash
# Byte-identical proofs from libproofpipe_c2 and the reference supraseal-c2, through one driver
# (tests/c2/c2_driver.c) linked against each in turn. The reference is built from its public source
# outside this tree (never committed or vendored):
#   scripts/c2_byte_identity.sh build REF_SRC WORK   here, after building c2_driver c2_fixture
#       (PP_BUILD_DIR, default build/release; a CUDA build, e.g. build/cuda with
#       -DCMAKE_CUDA_ARCHITECTURES=90, gives libproofpipe_c2 its GPU path, c2_fixture a GPU setup,
#       and stages cuda_evaluation_test when built): REF_SRC holds supra_seal's c2/, sppark/ and
#       blst/ (e.g. each extracted with `git archive`); WORK receives the reference's objects,
#       c2_driver_ref (nvcc -arch=sm_90, static cudart) and WORK/c2.tar.xz: both drivers,
#       c2_fixture, libproofpipe_c2.so and the shared libraries they need, and the commits used
#   scripts/c2_byte_identity.sh device STAGE "LOG_N:CIRCUITS[:THREADS:REPEATS] ..."   on the GPU
#       machine, logs under $OUT: per case, c2_fixture makes a PoRep-shaped circuit, its insecure
#       bellperson parameters and (r, s); both drivers prove it; cmp compares the 384-byte proofs;
#       c2_fixture verifies proofpipe's; THREADS x REPEATS timed calls follow when given. Options
#       (environment): PP_C2_TIMED="T R [T R]..." more timed (threads, repeats) rounds per driver;
#       PP_C2_REF_TIMED="T R..." the reference's rounds instead, when set (it serialises every call,
#       so its two-thread round costs two calls); PP_C2_SINGLE=1 each driver first proves circuit 0
#       alone (compared too); PP_C2_BUDGET_MB=M proofpipe once more under
#       engine.gpu_vram_max_mb = M (compared too), with the timed rounds PP_C2_BUDGET_TIMED="T R..."
#       when set; PP_C2_GPU_TEST=1 runs the staged GPU tests first (cuda_evaluation_staging_test,
#       cuda_evaluation_test; PP_C2_GPU_TEST_FILTER: a gtest filter). Every step (fixture, driver,
#       verify) runs under `timeout`: at most PP_C2_STEP_S seconds (default 900), and none past
#       PP_C2_DEADLINE (a `date +%s` time, when set), so a hang or an overrun still leaves the log of
#       the steps before it under $OUT; a step with under 10 s left is skipped. PP_C2_REF_LATE="T R..."
#       after everything else, the reference once more (circuit 0 alone, compared, then only these
#       rounds), when at least PP_C2_REF_LATE_S seconds (default 150) are left before PP_C2_DEADLINE.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

build() {
  set -e
  local src="$1" work="$2" bld="${PP_BUILD_DIR:-$here/build/release}"
  local nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
  mkdir -p "$work"
  work="$(cd "$work" && pwd)"
  # blst: its own build script (assembly, -D__ADX__ as c2's build.rs uses on ADX hosts).
  if [ ! -f "$work/libblst.a" ]; then
    (cd "$work" && CFLAGS="-O2 -fPIC -D__ADX__" sh "$src/blst/build.sh" >/dev/null)
  fi
  local flags=(-O3 -arch=sm_90 -t0 -DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE -DFEATURE_BLS12_381 -D__ADX__
               -I"$src/blst/src" -I"$src/sppark" -Xcompiler -Wno-subobject-linkage -Xcompiler -Wno-unused-function)
  [ -f "$work/all_gpus.o" ] || "$nvcc" "${flags[@]}" -x cu -c "$src/sppark/util/all_gpus.cpp" -o "$work/all_gpus.o"
  [ -f "$work/groth16_cuda.o" ] || "$nvcc" "${flags[@]}" -c "$src/c2/cuda/groth16_cuda.cu" -o "$work/groth16_cuda.o"
  gcc -O2 -c "$here/tests/c2/c2_driver.c" -I"$here/src/c2" -I"$here/tests/c2" -o "$work/c2_driver.o"
  "$nvcc" -arch=sm_90 -cudart static "$work/c2_driver.o" "$work/groth16_cuda.o" "$work/all_gpus.o" "$work/libblst.a" \
    -lpthread -o "$work/c2_driver_ref"
  # The symbols the drivers resolve: the reference's and libproofpipe_c2's, unmangled both.
  nm -g --defined-only "$work/groth16_cuda.o" | grep -E ' (create_SRS|evict_SRS|drop_SRS|clone_SRS|generate_groth16_proofs_c)$' \
    >"$work/symbols_ref.txt"
  nm -D --defined-only "$bld/src/c2/libproofpipe_c2.so" | grep -vE ' (_init|_fini)$' >"$work/symbols_pp.txt"

  local stage="$work/c2"
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib"
  cp "$work/c2_driver_ref" "$bld/tests/c2/c2_driver" "$bld/tests/c2/c2_fixture" "$stage/bin/"
  for t in cuda_evaluation_test cuda_evaluation_staging_test; do
    [ ! -f "$bld/tests/cuda/$t" ] || cp "$bld/tests/cuda/$t" "$stage/bin/"
  done
  cp -P "$bld"/src/c2/libproofpipe_c2.so* "$stage/lib/"  # the library, its SONAME link and the .so link
  cp "$here/scripts/c2_byte_identity.sh" "$work/symbols_ref.txt" "$work/symbols_pp.txt" "$stage/"
  for f in "$stage"/bin/* "$stage/lib/libproofpipe_c2.so"; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
    grep -vE '/(libc|libm|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' | grep -v proofpipe_c2 |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  {
    echo "proofpipe $(git -C "$here" rev-parse HEAD)$(git -C "$here" diff --quiet HEAD || echo ' (uncommitted changes)')"
    for r in c2 sppark blst; do [ -f "$src/$r.commit" ] && echo "$r $(cat "$src/$r.commit")"; done
  } >"$stage/commits.txt"
  strip --strip-unneeded "$stage"/bin/* "$stage"/lib/* 2>/dev/null || true
  tar -C "$work" -cf - c2 | xz -T2 -9 >"$work/c2.tar.xz"
  du -sh "$stage" "$work/c2.tar.xz"
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  local stage="$1"
  shift
  export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local log="$OUT/c2_byte_identity.log"
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nproc
    cat "$stage/commits.txt" "$stage/symbols_ref.txt" "$stage/symbols_pp.txt"
  } >>"$log" 2>&1
  if [ "${PP_C2_GPU_TEST:-0}" = 1 ]; then
    for t in cuda_evaluation_staging_test cuda_evaluation_test; do
      [ -x "$stage/bin/$t" ] || continue
      timeout 240 "$stage/bin/$t" --gtest_filter="${PP_C2_GPU_TEST_FILTER:-*}" >"$OUT/$t.log" 2>&1
      echo "RESULT $t: exit $?" >>"$log"
    done
  fi
  # step NAME COMMAND...: COMMAND under its time limit, output to the log, its seconds logged.
  step() {
    local name="$1" limit="${PP_C2_STEP_S:-900}"
    shift
    if [ -n "${PP_C2_DEADLINE:-}" ]; then
      local left=$((PP_C2_DEADLINE - $(date +%s)))
      [ "$left" -lt "$limit" ] && limit=$left
    fi
    if [ "$limit" -lt 10 ]; then
      echo "$name: skipped, ${limit} s left before PP_C2_DEADLINE" >>"$log"
      return 124
    fi
    local t0=$SECONDS rc=0
    timeout -k 10 "$limit" "$@" >>"$log" 2>&1 || rc=$?
    echo "$name: $((SECONDS - t0)) s, exit $rc$([ "$rc" = 124 ] && echo " (stopped at its ${limit} s limit)")" >>"$log"
    return "$rc"
  }
  local work=/tmp/c2_cases
  for spec in $*; do
    IFS=: read -r log_n circuits threads repeats <<<"$spec"
    local dir="$work/$log_n"
    local timed=(${threads:+$threads $repeats} ${PP_C2_TIMED:-})
    mkdir -p "$dir"
    rm -f "$dir"/ref*.bin "$dir"/pp*.bin  # no proofs of an earlier run compared or verified
    echo "=== 2^$log_n, $circuits circuits per call" >>"$log"
    if [ ! -f "$dir/params.bin" ] || [ "$(cat "$dir/circuits" 2>/dev/null)" != "$circuits" ]; then
      step fixture "$stage/bin/c2_fixture" make "$dir" "$log_n" "$circuits" random || { echo "fixture FAILED" >>"$log"; continue; }
      echo "$circuits" >"$dir/circuits"
      { free -g; df -h "$work"; } >>"$log" 2>&1
    fi
    # name driver output [environment...]: one driver run, its proofs in $dir/output.bin (and
    # $dir/output_1.bin, circuit 0 alone, with PP_C2_SINGLE=1).
    run_driver() {
      local name="$1" bin="$2" out="$3"
      shift 3
      echo "--- $name" >>"$log"
      local single=()
      [ "${PP_C2_SINGLE:-0}" = 1 ] && single=(C2_DRIVER_SINGLE="$dir/${out}_1.bin")
      step "$name" env "${single[@]}" "$@" "$stage/bin/$bin" "$dir" "$dir/$out.bin" "${timed[@]}" || echo "$name FAILED" >>"$log"
    }
    compare() {
      local what="$1" a="$2" b="$3"
      if cmp "$dir/$a" "$dir/$b" >>"$log" 2>&1; then
        echo "RESULT 2^$log_n $what: byte-identical ($(stat -c %s "$dir/$b") bytes)" >>"$log"
      else
        echo "RESULT 2^$log_n $what: DIFFERENT" >>"$log"
      fi
    }
    local pp_timed=("${timed[@]}")
    [ -n "${PP_C2_REF_TIMED+set}" ] && timed=(${PP_C2_REF_TIMED})
    run_driver reference c2_driver_ref ref
    timed=("${pp_timed[@]}")
    run_driver proofpipe c2_driver pp
    compare "x$circuits" ref.bin pp.bin
    [ "${PP_C2_SINGLE:-0}" = 1 ] && compare "x1 (circuit 0 alone)" ref_1.bin pp_1.bin
    if [ -n "${PP_C2_BUDGET_MB:-}" ]; then
      printf '[engine]\ngpu_vram_max_mb = %s\n' "$PP_C2_BUDGET_MB" >"$dir/budget.toml"
      local all_timed=("${timed[@]}")
      [ -n "${PP_C2_BUDGET_TIMED+set}" ] && timed=(${PP_C2_BUDGET_TIMED})
      run_driver "proofpipe, engine.gpu_vram_max_mb = $PP_C2_BUDGET_MB" c2_driver pp_budget \
        PROOFPIPE_C2_CONFIG="$dir/budget.toml"
      timed=("${all_timed[@]}")
      compare "x$circuits under gpu_vram_max_mb = $PP_C2_BUDGET_MB" ref.bin pp_budget.bin
    fi
    step verify "$stage/bin/c2_fixture" verify "$dir" "$dir/pp.bin" && echo "RESULT 2^$log_n x$circuits: proofpipe's proofs verify" >>"$log"
    if [ -n "${PP_C2_REF_LATE:-}" ]; then
      local left=$(( ${PP_C2_DEADLINE:-$(( $(date +%s) + 100000 ))} - $(date +%s) ))
      if [ "$left" -ge "${PP_C2_REF_LATE_S:-150}" ]; then
        local late_single=(C2_DRIVER_SINGLE="$dir/ref_late_1.bin")
        echo "--- reference again, rounds $PP_C2_REF_LATE" >>"$log"
        step "reference again" env "${late_single[@]}" "$stage/bin/c2_driver_ref" "$dir" - $PP_C2_REF_LATE ||
          echo "reference again FAILED" >>"$log"
        [ -f "$dir/pp_1.bin" ] && compare "x1 (circuit 0 alone, the reference again)" ref_late_1.bin pp_1.bin
      else
        echo "reference again: skipped, $left s left before PP_C2_DEADLINE" >>"$log"
      fi
    fi
    # The proofs' digests, not the files: a run brings back at most 8 files.
    (cd "$dir" && sha256sum ref*.bin pp*.bin) >>"$log" 2>&1
  done
  grep RESULT "$log"
}

case "${1:-}" in
  build) shift; build "$@" ;;
  device) shift; device "$@" ;;
  *) echo "usage: $0 build REF_SRC WORK | device STAGE 'LOG_N:CIRCUITS[:THREADS:REPEATS] ...'" >&2; exit 2 ;;
esac

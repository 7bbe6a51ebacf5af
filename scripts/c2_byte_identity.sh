#!/usr/bin/env bash
# Byte-identical proofs from libproofpipe_c2 and the reference supraseal-c2, through one driver
# (tests/c2/c2_driver.c) linked against each in turn. The reference is built from its public source
# outside this tree (never committed or vendored):
#   scripts/c2_byte_identity.sh build REF_SRC WORK   here, after building c2_driver c2_fixture
#       (release preset): REF_SRC holds supra_seal's c2/, sppark/ and blst/ (e.g. each extracted
#       with `git archive`); WORK receives the reference's objects, c2_driver_ref (nvcc -arch=sm_90,
#       static cudart) and WORK/c2.tar.xz: both drivers, c2_fixture, libproofpipe_c2.so and the
#       shared libraries they need, and the commits used
#   scripts/c2_byte_identity.sh device STAGE "LOG_N:CIRCUITS[:THREADS:REPEATS] ..."   on the GPU
#       machine, logs under $OUT: per case, c2_fixture makes a PoRep-shaped circuit, its insecure
#       bellperson parameters and (r, s); both drivers prove it; cmp compares the 384-byte proofs;
#       c2_fixture verifies proofpipe's; THREADS x REPEATS timed calls follow when given.
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
  cp "$bld/src/c2/libproofpipe_c2.so" "$stage/lib/"
  cp "$here/scripts/c2_byte_identity.sh" "$work/symbols_ref.txt" "$work/symbols_pp.txt" "$stage/"
  for f in "$stage"/bin/* "$stage/lib/libproofpipe_c2.so"; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
    grep -vE '/(libc|libm|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' | grep -v proofpipe_c2 |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  {
    echo "proofpipe $(git -C "$here" rev-parse HEAD)$(git -C "$here" diff --quiet HEAD || echo ' (uncommitted changes)')"
    for r in c2 sppark blst; do [ -f "$src/$r.commit" ] && echo "$r $(cat "$src/$r.commit")"; done
  } >"$stage/commits.txt"
  strip --strip-unneeded "$stage"/bin/* "$stage"/lib/* 2>/dev/null || true
  tar -C "$work" -cf - c2 | xz -T2 -6 >"$work/c2.tar.xz"
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
  local work=/tmp/c2_cases
  for spec in $*; do
    IFS=: read -r log_n circuits threads repeats <<<"$spec"
    local dir="$work/$log_n"
    mkdir -p "$dir"
    echo "=== 2^$log_n, $circuits circuits per call" >>"$log"
    if [ ! -f "$dir/params.bin" ] || [ "$(cat "$dir/circuits" 2>/dev/null)" != "$circuits" ]; then
      local t0=$SECONDS
      "$stage/bin/c2_fixture" make "$dir" "$log_n" "$circuits" random >>"$log" 2>&1 || { echo "fixture FAILED" >>"$log"; continue; }
      echo "$circuits" >"$dir/circuits"
      echo "fixture: $((SECONDS - t0)) s" >>"$log"
    fi
    echo "--- reference" >>"$log"
    "$stage/bin/c2_driver_ref" "$dir" "$dir/ref.bin" ${threads:+"$threads" "$repeats"} >>"$log" 2>&1 || echo "reference FAILED" >>"$log"
    echo "--- proofpipe" >>"$log"
    "$stage/bin/c2_driver" "$dir" "$dir/pp.bin" ${threads:+"$threads" "$repeats"} >>"$log" 2>&1 || echo "proofpipe FAILED" >>"$log"
    if cmp "$dir/ref.bin" "$dir/pp.bin" >>"$log" 2>&1; then
      echo "RESULT 2^$log_n x$circuits: byte-identical ($(stat -c %s "$dir/pp.bin") bytes)" >>"$log"
    else
      echo "RESULT 2^$log_n x$circuits: DIFFERENT" >>"$log"
    fi
    "$stage/bin/c2_fixture" verify "$dir" "$dir/pp.bin" >>"$log" 2>&1 && echo "proofpipe's proofs verify" >>"$log"
    cp "$dir/ref.bin" "$OUT/ref_${log_n}_x${circuits}.bin" 2>/dev/null
    cp "$dir/pp.bin" "$OUT/pp_${log_n}_x${circuits}.bin" 2>/dev/null
  done
  grep RESULT "$log"
}

case "${1:-}" in
  build) shift; build "$@" ;;
  device) shift; device "$@" ;;
  *) echo "usage: $0 build REF_SRC WORK | device STAGE 'LOG_N:CIRCUITS[:THREADS:REPEATS] ...'" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Builds the reference library's MSM / NTT benchmark driver (sppark_bench.cu, points.cpp) outside
# this tree, against sppark and blst checkouts (neither is vendored here), for sm_90:
#   tools/ref_bench/build.sh SPPARK_DIR BLST_DIR OUT_DIR
# BLST_LIB names libblst.a (blst's build.sh; default BLST_DIR/libblst.a); OUT_DIR receives sppark_bench, which
# scripts/device_run.sh build stages (as bin/ref_bench, run by `device msm`) when PP_REF_BENCH names it. Usage there:
#   sppark_bench g1:24 g1:26 g2:24 g1host:24 ntt:27   (host: its host entry, transfers included)
set -euo pipefail
sppark="${1:?usage: build.sh SPPARK_DIR BLST_DIR OUT_DIR}" blst="${2:?}" out="${3:?}"
lib="${BLST_LIB:-$blst/libblst.a}"  # blst's build.sh output
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
nvcc -O2 -std=c++17 -arch=sm_90 -I"$sppark" -x cu -c "$sppark/util/all_gpus.cpp" -o "$out/all_gpus.o"
g++ -O2 -c -I"$blst/bindings" "$here/points.cpp" -o "$out/points.o"
nvcc -O3 -std=c++17 -arch=sm_90 -DFEATURE_BLS12_381 -D__ADX__ -I"$sppark" -I"$blst/src" -o "$out/sppark_bench" \
  "$here/sppark_bench.cu" "$out/points.o" "$out/all_gpus.o" "$lib"

#!/usr/bin/env bash
# Session 35, call 1: the FP64-pipe Montgomery product (src/ff/mont_mul_f64.hpp), the XYZZ
# accumulator with ZZ and ZZZ on it (src/ec/xyzz_f64.hpp), and BLS12-381's G1 MSM accumulation built
# on that accumulator (src/cuda/msm/msm_kernels.cuh). cuda_field_test and cuda_curve_test's G1 cases
# (every device operation against the host, the FP64-pipe ones among them); cuda_arith_bench (the
# product on the integer path, on the FP64 pipe, one chain of each interleaved in a thread, G1 madd
# both ways); cuda_msm_bench 24 26 with main's binary (b33e906) then this build's; the MSM device
# tests of this build; sppark 17278d7's G1 MSMs.
set -u
st=.devstage/run
mkdir -p $st
for t in libs f64; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-590} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/env.txt"
echo "f64 $(cat $st/f64/commit.txt) $(cat $st/f64/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
b=$st/f64/bin
timeout 90 $b/cuda_field_test > "$OUT/field-test.log" 2>&1
echo "field test exit $? ($((SECONDS - t0)) s)"; grep -E "^\[  (PASSED|FAILED)|OnTheFp64" "$OUT/field-test.log" | tail -8
timeout 90 $b/cuda_curve_test --gtest_filter='DeviceG1.*' > "$OUT/curve-test.log" 2>&1
echo "curve test exit $? ($((SECONDS - t0)) s)"; grep -E "^\[  (PASSED|FAILED)|OnTheFp64" "$OUT/curve-test.log" | tail -8
timeout 150 $b/cuda_arith_bench > "$OUT/arith.log" 2>&1
echo "arith exit $? ($((SECONDS - t0)) s)"; cat "$OUT/arith.log"
timeout 90 $b/cuda_msm_bench_main 24 26 > "$OUT/msm-main.log" 2>&1
echo "msm main exit $? ($((SECONDS - t0)) s)"; tail -12 "$OUT/msm-main.log"
timeout 90 $b/cuda_msm_bench 24 26 > "$OUT/msm-f64.log" 2>&1
echo "msm f64 exit $? ($((SECONDS - t0)) s)"; tail -12 "$OUT/msm-f64.log"
timeout $(( $(left) - 40 )) $b/cuda_msm_device_test > "$OUT/msm-test.log" 2>&1
echo "msm test exit $? ($((SECONDS - t0)) s)"; grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/msm-test.log" | tail -8
timeout $(( $(left) - 5 )) $b/sppark_bench g1:24 g1:26 > "$OUT/sppark.log" 2>&1
echo "sppark exit $? ($((SECONDS - t0)) s)"; tail -6 "$OUT/sppark.log"
cat "$OUT/env.txt"

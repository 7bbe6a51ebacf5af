#!/usr/bin/env bash
# s14 call 1: the accumulation's point fetched one entry ahead. v1 = the tree (G1 in registers, G2
# staged in shared memory), v2 = the other way round, base = the kernels before (030df00's). v1/v2 differed only in src/cuda/msm_kernels.cuh's per-curve choice of fetch (registers or shared memory), since removed: the tree keeps the shared-memory one for both curves.
set -u
t0=$SECONDS
tar -C /tmp -xJf .devstage/c1.tar.xz || exit 1
cd /tmp/c1 || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; nproc; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; } > "$OUT/env.txt" 2>&1
k1='_ZN2pp4cuda10msm_detail20segmented_sum_kernelINS_2ec8g1_curveENS1_12point_sourceIS4_EEEEvPKjT0_mS8_jjmPNS3_4xyzzIT_EEPjPhSD_'
cuobjdump -sass -fun "$k1" bin/cuda_msm_bench > "$OUT/sass_g1_accumulate.txt" 2>&1; echo "sass exit $? ($((SECONDS-t0)) s)"
grep -nE 'LDG|LDS|LDGSTS|BRA|EXIT' "$OUT/sass_g1_accumulate.txt" | head -40
timeout 150 bin/cuda_msm_device_test > "$OUT/tests.log" 2>&1; echo "msm device test v1 exit $? ($((SECONDS-t0)) s)"
timeout 120 bin/cuda_msm_precompute_test >> "$OUT/tests.log" 2>&1; echo "precompute test v1 exit $? ($((SECONDS-t0)) s)"
timeout 120 bin/cuda_msm_device_test_v2 --gtest_filter='*Small*:*Giant*:*LargeSizes*:*Selected*:*BucketsCarry*:*Chunked*' >> "$OUT/tests.log" 2>&1
echo "msm device test v2 exit $? ($((SECONDS-t0)) s)"
grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|seed' "$OUT/tests.log"
for v in base v1 v2; do
  b=bin/cuda_msm_bench; [ $v = v1 ] || b=bin/cuda_msm_bench_$v
  echo "=== $v" >> "$OUT/bench.log"
  timeout 100 $b 24 26 g2:24 >> "$OUT/bench.log" 2>&1; echo "bench $v exit $? ($((SECONDS-t0)) s)"
done
grep -E '^===|^\| g[12] ' "$OUT/bench.log"
timeout 90 bin/ref_bench g1:24 g1:26 g2:24 > "$OUT/ref.log" 2>&1; echo "ref exit $? ($((SECONDS-t0)) s)"; tail -5 "$OUT/ref.log"

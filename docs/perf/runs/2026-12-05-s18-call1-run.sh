#!/usr/bin/env bash
# Call 1: the three prepared diffs (fp2-one-pass, fp-square, both) against main's MSM kernels, one
# machine, one call: cuda_msm_bench 24 26 g2:24 per variant, sppark 17278d7's MSMs, then the field,
# curve and MSM device tests of the combined diff.
set -u
here=$(cd "$(dirname "$0")" && pwd)
t0=$SECONDS
export LD_LIBRARY_PATH=$here/lib
if ldd $here/base/cuda_msm_bench 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$here/lib_cxx; fi
{ date -u; nproc; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu,pcie.link.gen.max,pcie.link.width.max --format=csv; } > $OUT/env.txt 2>&1
cat $OUT/env.txt
for v in base fp2 sq both; do
  echo "=== $v" >> $OUT/msm.log
  timeout 110 $here/$v/cuda_msm_bench 24 26 g2:24 >> $OUT/msm.log 2>&1; echo "msm $v exit $? ($((SECONDS - t0)) s)"
done
timeout 90 $here/ref_bench g1:24 g1:26 g2:24 > $OUT/ref.log 2>&1; echo "ref exit $? ($((SECONDS - t0)) s)"
grep -hE '^=== |^\| g|^result |msm' $OUT/msm.log $OUT/ref.log | head -60
timeout 30 $here/cub_temp_probe > $OUT/cub_temp.txt 2>&1; echo "cub probe exit $?"
for t in cuda_field_test cuda_curve_test cuda_msm_device_test; do
  timeout 200 $here/both/$t >> $OUT/tests_both.log 2>&1; echo "test both/$t exit $? ($((SECONDS - t0)) s)"
done
grep -E '^\[  (PASSED|FAILED) |FAILED' $OUT/tests_both.log | head

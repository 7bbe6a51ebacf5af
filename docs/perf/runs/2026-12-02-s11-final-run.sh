#!/usr/bin/env bash
# s11 final call: the Karatsuba experiment (30 s), every GPU test of 2a74314, the MSM / NTT
# benchmarks beside the reference library, the 2^27 partition unlimited.
set -u
root=$PWD
t0=$SECONDS
( cd .devstage/kmul
  for b in kmul_byval kmul_kara2 kmul_kara2sq kmul_byval kmul_kara2 kmul_kara2sq; do
    echo "== $b" >> "$OUT/k2.log"; timeout 60 ./$b 24 >> "$OUT/k2.log" 2>&1; echo "$b exit $?"
  done
  grep -E '==|accumulate|segments' "$OUT/k2.log" )
echo "kmul done $((SECONDS-t0)) s"
bash scripts/device_run.sh device tests > "$OUT/tests_console.txt" 2>&1
grep -E 'exit|PASSED|FAILED' "$OUT/tests_console.txt" | tail -20
echo "tests done $((SECONDS-t0)) s"
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
timeout 60 bin/cuda_msm_bench 24 26 27 g2:24 > "$OUT/msm.log" 2>&1; echo "msm exit $?"
timeout 45 "$root/.devstage/kmul/ref_bench" g1:24 g1:26 g2:24 ntt:27 > "$OUT/ref.log" 2>&1; echo "ref exit $?"
timeout 30 bin/cuda_ntt_bench 27 > "$OUT/ntt.log" 2>&1; echo "ntt exit $?"
cat "$OUT/msm.log" "$OUT/ref.log"; grep -E '2\^27' "$OUT/ntt.log" | head -5
echo "benches done $((SECONDS-t0)) s"
left=$((${PP_LEFT:-585} - SECONDS + t0))
[ $left -gt 60 ] && timeout $left bin/cuda_prover_bench --lanes 2 --runs 2 --cpu-check-max-log 0 27 > "$OUT/partition.log" 2>&1; echo "partition exit $?"
grep -E 'GPU time per partition|gpu msm|gpu ntt|plan used' "$OUT/partition.log"
echo "all done $((SECONDS-t0)) s"

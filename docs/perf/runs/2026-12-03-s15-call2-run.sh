#!/usr/bin/env bash
# s15 call 2: the Fr product's reduction with m from the constant bank (v3: low limbs as additions;
# v4: the generic CIOS reduction) against today's (v0): v4's field and NTT tests, then the arithmetic
# and NTT benchmarks interleaved, twice, and sppark's NTT in the same call.
set -u
t0=$SECONDS
tar -C /tmp -xJf .devstage/fr.tar.xz || exit 1
cd /tmp/fr || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$OUT/env.txt" 2>&1
for t in cuda_field_test cuda_ntt_device_test; do
  timeout 120 bin/$t >> "$OUT/tests.log" 2>&1; echo "test $t (v4) exit $? ($((SECONDS-t0)) s)" | tee -a "$OUT/tests.log"
done
grep -E '^\[  (PASSED|FAILED) |^\[  FAILED' "$OUT/tests.log"
for r in 1 2; do
  for v in 0 3 4; do
    echo "=== arith v$v round $r" >> "$OUT/arith.log"; timeout 60 bin/cuda_arith_bench_v$v >> "$OUT/arith.log" 2>&1
    echo "=== ntt v$v round $r" >> "$OUT/ntt.log"; timeout 60 bin/cuda_ntt_bench_v$v 27 >> "$OUT/ntt.log" 2>&1
    echo "round $r v$v done ($((SECONDS-t0)) s)"
  done
done
timeout 60 bin/ref_bench ntt:27 > "$OUT/ref.log" 2>&1; echo "ref exit $?"
grep -E '^===|fr_mul|fp_mul' "$OUT/arith.log" | head -40
grep -E '^===|2\^27|27 ' "$OUT/ntt.log" | head -60
cat "$OUT/ref.log" | tail -5

#!/usr/bin/env bash
# s15 call 3: the fused Fr reduction's tree, every GPU test (device_run.sh device tests), then the NTT
# benchmark and sppark's NTT in the same call.
set -u
t0=$SECONDS
bash scripts/device_run.sh device tests
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
timeout 60 bin/cuda_ntt_bench 27 > "$OUT/ntt.log" 2>&1; echo "ntt exit $? ($((SECONDS-t0)) s)"
timeout 60 bin/ref_bench ntt:27 > "$OUT/ref.log" 2>&1; echo "ref exit $? ($((SECONDS-t0)) s)"
grep -E '^2\^(24|27) +(ntt +nn-oop +9 |to_coset +nn|coset_intt +nn-oop)' "$OUT/ntt.log"
tail -2 "$OUT/ref.log"

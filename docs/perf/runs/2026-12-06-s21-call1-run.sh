#!/usr/bin/env bash
# Session 21, call 1, on the stage of the bn254-gpu-prover branch (`scripts/device_run.sh build`,
# carried as .devrun/cuda.tar.xz): BN254's whole prover on the GPU first (its test alone, the 2^20
# proof against the CPU's among its cases), then every GPU test of the build, then the engine on the
# GPU host with a circom bn128 key (MiMC7 chain of 80, 116k constraints, carried as
# .devrun/bn254.tar.xz: its partitions on gpu0 now), GPU proofs of three circom bn128 circuits with
# snarkjs keys (poly, range, a Poseidon Merkle inclusion; snarkjs verifies them back on the dev host),
# and the NTT at 2^27 for the templated kernels.
set -u
t0=$SECONDS
tar -C .devrun -xJf .devrun/cuda.tar.xz || exit 1
tar -C .devrun -xJf .devrun/bn254.tar.xz || exit 1
cd .devrun/cuda || exit 1
export LD_LIBRARY_PATH=$PWD/lib
if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/lib_cxx; fi
{ date -u; echo "commit $(cat commit.txt)"; cat dirty.txt; nproc; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } >"$OUT/env.txt" 2>&1
timeout 200 bin/cuda_bn254_backend_test >"$OUT/bn254_test.log" 2>&1
echo "cuda_bn254_backend_test exit $? ($((SECONDS - t0)) s)"
grep -E '^\[  (PASSED|FAILED) |^\[       OK|FAILED' "$OUT/bn254_test.log" | tail -12
# Every other GPU test of the build, with device_run.sh's limits.
for t in cuda_device_info_test:20 cuda_field_test:60 cuda_curve_test:90 cuda_ntt_device_test:90 \
  cuda_spmv_device_test:120 cuda_device_memory_test:30 cuda_msm_plan_test:30 cuda_msm_device_test:240 \
  cuda_msm_precompute_test:240 cuda_fixed_base_device_test:120 cuda_backend_test:240 cuda_evaluation_test:120 \
  cuda_evaluation_staging_test:60 cuda_pinned_chunk_copier_test:60 cuda_link_pacer_test:30 \
  cuda_cub_temp_model_gpu_test:120 cuda_budget_plan_gpu_test:240; do
  timeout "${t#*:}" "bin/${t%%:*}" >>"$OUT/tests.log" 2>&1
  echo "test ${t%%:*} exit $? ($((SECONDS - t0)) s)" | tee -a "$OUT/tests.log"
done
CUDA_VISIBLE_DEVICES=-1 bin/cuda_device_info_test >/dev/null 2>&1
echo "skip path exit $? (want 77)"
grep -E '^\[  FAILED ' "$OUT/tests.log" | head
for c in poly range merkle; do
  d=../bn254/interop/$c
  mkdir -p "$OUT/interop/$c"
  cp "$d/vk.json" "$OUT/interop/$c/"
  bin/proofpipe prove --backend cuda "$d/$c.zkey" "$d/$c.wtns" "$OUT/interop/$c/proof.json" \
    "$OUT/interop/$c/public.json" >"$OUT/interop/$c/prove.log" 2>&1
  echo "gpu prove bn254 $c exit $?"
  grep -m1 -i "proving" "$OUT/interop/$c/prove.log"
done
timeout 40 bin/proofpipe bench --backend cuda --zkey ../bn254/mimc80.zkey --wtns ../bn254/mimc80.wtns \
  --partitions 4 --proofs 2 >"$OUT/engine_bn254.log" 2>&1
echo "engine bn254 exit $? ($((SECONDS - t0)) s)"
grep -hE '^device|^throughput|^workload|rror|efused|gpu0|cpu' "$OUT/engine_bn254.log" | head -12
timeout 30 bin/proofpipe prove --backend cuda ../bn254/mimc80.zkey ../bn254/mimc80.wtns "$OUT/mimc80_proof.json" \
  "$OUT/mimc80_public.json" >"$OUT/prove_bn254.log" 2>&1
echo "prove --backend cuda (bn254) exit $? ($((SECONDS - t0)) s)"
tail -4 "$OUT/prove_bn254.log"
timeout 60 bin/cuda_ntt_bench 27 >"$OUT/ntt.log" 2>&1
echo "ntt bench exit $? ($((SECONDS - t0)) s)"
tail -12 "$OUT/ntt.log"

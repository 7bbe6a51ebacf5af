#!/usr/bin/env bash
# Every GPU test and benchmark on a lent GPU machine, building nothing there, and docs/perf/h200.json.
#   scripts/device_run.sh build           here: build the CUDA targets and `proofpipe` (sm_90, static
#                                         cudart) into build/cuda and stage them with the shared
#                                         libraries they need in .devrun/cuda
#   scripts/device_run.sh device [PHASE]  there, logs under $OUT: tests (the gpu tests and the no-GPU
#                                         skip path); bench (NTT, MSM, the engine with 2 workers per GPU
#                                         and its trace); partitions (the PoRep 2^26 / 2^27 partitions
#                                         with GPU-made keys, the 2^26 proof also made by cpu_backend
#                                         and compared, ~7 min); interop (below); all (default:
#                                         tests, bench, partitions without the 2^26 CPU proof, interop
#                                         with its 2^24 one: ~9 min, inside one 600 s call). Each
#                                         writes h200.json from what its log holds.
#   scripts/device_run.sh collect DIR...  here: docs/perf/h200.json from fetched $OUT folders' logs
#   device budgets [LOG...]               cuda_backend_test and cuda_spmv_device_test, then the PoRep
#                                         partitions (default 2^26 and 2^27) under VRAM budgets of
#                                         unlimited, 48, 32, 24, 16 GiB with one key per size:
#                                         vram-budgets.json (PP_BUDGET_RUNS: runs, 3; PP_BUDGETS: the
#                                         budgets in GiB, 0 unlimited and first, default 0,48,32,24,16;
#                                         PP_BUDGET_ARGS: more bench flags, e.g. --steady-gib 24
#                                         --two-keys-gib 24 --pageable-gib 24; PP_BACKEND_FILTER,
#                                         PP_SPMV_FILTER: the backend and SpMV tests to run, gtest
#                                         filters)
#   device c2                             whole PoRep C2 proofs through the engine: proofpipe bench --porep
#                                         (2^27, 3 proofs of 10 partitions; PP_C2_ARGS: more flags, e.g.
#                                         --vram-gib 0,24 --h2d-gib-s 0,25; PP_C2_LIMIT: seconds, 560)
#   device multigpu                       (2+ GPUs) 1 vs 2 GPUs through the engine, and one failing:
#                                         multi-gpu.json
#   device interop / verify_interop DIR   GPU proofs of the interop test's circom circuits there,
#                                         snarkjs verifies them here
#   device vectors                        several scalar vectors over one streamed table (issue 34's
#                                         partitions taken together): the streamed MSM tests and
#                                         cuda_msm_vectors_bench (PP_VECTORS_ARGS: its flags), ~6 min
#   device msm                            the MSM work's call (docs/perf/msm-h200.md), so that every
#                                         ratio comes from one run: the MSM tests, cuda_backend_test's
#                                         streamed, small and PoRep-like cases (the partitions through
#                                         the split MSM), the MSM benchmark, the reference library's
#                                         MSM and NTT benchmark (PP_REF_BENCH names its binary at
#                                         build time: tools/ref_bench/build.sh), the key read and a
#                                         2^27 partition: logs per step and summary.txt, ~380 s
# The run tool call, from the repository root after `build` (one call per phase: all of them pass
# the tool's 600 s per call):
#   run(command="bash scripts/device_run.sh device", carry=[".devrun/cuda.tar.xz"], timeout_s=600)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stage="$here/.devrun/cuda"
build_dir="${PP_BUILD_DIR:-$here/build/cuda}"
tests=(cuda_device_info_test cuda_field_test cuda_curve_test cuda_ntt_device_test cuda_spmv_device_test
       cuda_device_memory_test cuda_msm_plan_test cuda_msm_device_test cuda_msm_precompute_test
       cuda_fixed_base_device_test cuda_backend_test cuda_evaluation_test cuda_evaluation_staging_test
       cuda_pinned_chunk_copier_test cuda_link_pacer_test cuda_cub_temp_model_gpu_test cuda_budget_plan_gpu_test
       cuda_bn254_backend_test)
benches=(cuda_ntt_bench cuda_msm_bench cuda_h2d_bench)
partition_bench=cuda_prover_bench
vectors_bench=cuda_msm_vectors_bench
# Seconds each may take there.
declare -A limit=([cuda_device_info_test]=20 [cuda_field_test]=60 [cuda_curve_test]=90 [cuda_ntt_device_test]=90
                  [cuda_spmv_device_test]=120 [cuda_device_memory_test]=30 [cuda_msm_plan_test]=30
                  [cuda_msm_device_test]=240 [cuda_msm_precompute_test]=240 [cuda_fixed_base_device_test]=120
                  [cuda_backend_test]=240 [cuda_evaluation_test]=120
                  [cuda_evaluation_staging_test]=60 [cuda_pinned_chunk_copier_test]=60 [cuda_link_pacer_test]=30
                  [cuda_cub_temp_model_gpu_test]=120 [cuda_budget_plan_gpu_test]=240
                  [cuda_bn254_backend_test]=300
                  [cuda_ntt_bench]=60 [cuda_msm_bench]=90 [cuda_h2d_bench]=60 [cuda_prover_bench]=560)
# The sizes h200.json reports (the benchmarks' defaults sweep more).
declare -A args=([cuda_ntt_bench]="27" [cuda_msm_bench]="24 26 g2:24"
                 [cuda_prover_bench]="--lanes 2 --runs 5 --cpu-check-max-log 26 26 27")
engine_bench=(--backend cuda --workers 2 --log-constraints 22 --partitions 10 --proofs 4 --witness-threads 4
              --finish-threads 4)

build() {
  set -e
  cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build "$build_dir" --target "${tests[@]}" "${benches[@]}" "$partition_bench" "$vectors_bench" \
    formats_params_read_bench proofpipe -j"${PP_JOBS:-2}"
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/lib_cxx"
  for t in "${tests[@]}"; do cp "$build_dir/tests/cuda/$t" "$stage/bin/"; done
  for b in "${benches[@]}" "$partition_bench" "$vectors_bench"; do cp "$build_dir/bench/cuda/$b" "$stage/bin/"; done
  cp "$build_dir/bench/formats/formats_params_read_bench" "$build_dir/proofpipe" "$stage/bin/"
  if [ -n "${PP_REF_BENCH:-}" ]; then cp "$PP_REF_BENCH" "$stage/bin/ref_bench"; fi
  cp "$here/scripts/h200_json.py" "$stage/"
  # Shared libraries the device image lacks (spdlog, fmt, tbb, gmp, ...): all that ldd resolves except
  # the C/C++ runtime, which the image has; this build's C++ runtime goes along in case it is older.
  for f in "$stage"/bin/*; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$(g++ -print-file-name=libgcc_s.so.1)" "$stage/lib_cxx/"
  # Circom circuits with snarkjs keys and witnesses (left by the interop test), for GPU proofs that
  # snarkjs then verifies here (device interop, then verify-interop).
  local interop="${PP_INTEROP_DIR:-$here/build/release/interop_work}"
  if [ -d "$interop" ]; then
    for c in poly range merkle; do
      [ -f "$interop/$c/$c.zkey" ] || continue
      mkdir -p "$stage/interop/$c"
      cp "$interop/$c/$c.zkey" "$interop/$c/$c.wtns" "$interop/$c/vk.json" "$stage/interop/$c/"
    done
  fi
  git -C "$here" rev-parse HEAD >"$stage/commit.txt"
  git -C "$here" status --short --untracked-files=no >"$stage/dirty.txt"
  # The run tool carries at most 64 MiB with the tree: stripped and xz-compressed, unpacked there.
  # -9's 64 MiB window finds what the binaries share (the static CUDA runtime, the kernels): a 179 MB
  # stage packs to 25 MB, against 64 MB at -6, which no longer fit beside the tree.
  strip --strip-unneeded "$stage"/bin/* "$stage"/lib/* 2>/dev/null || true
  tar -C "$here/.devrun" -cf - cuda | xz -T2 -9 >"$here/.devrun/cuda.tar.xz"
  du -sh "$stage" "$here/.devrun/cuda.tar.xz"
}

# step NAME LIMIT_S CMD...: runs CMD with a time limit, output to $OUT/NAME.log, and notes its exit
# and time in $OUT/summary.txt.
step() {
  local name="$1" secs="$2"
  shift 2
  local t0=$SECONDS
  timeout "$secs" "$@" >>"$OUT/$name.log" 2>&1
  local rc=$?
  echo "$name: $* exit $rc ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
  return $rc
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  local phase="${1:-all}"
  [ -d "$stage" ] || tar -C "$here/.devrun" -xJf "$here/.devrun/cuda.tar.xz" || exit 1
  cd "$stage" || exit 1
  export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ldd bin/* 2>&1 | grep -qE 'not found|GLIBCXX'; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$stage/lib_cxx"; fi
  { date -u; echo "commit $(cat commit.txt)"; echo "modified:"; cat dirty.txt; nproc
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  } >"$OUT/env.txt" 2>&1
  cat "$OUT/env.txt"
  local failed=0
  if [ "$phase" = all ] || [ "$phase" = tests ]; then
    for t in "${tests[@]}"; do
      timeout "${limit[$t]}" "bin/$t" >>"$OUT/tests.log" 2>&1
      local rc=$?
      echo "test $t exit $rc" | tee -a "$OUT/tests.log"
      [ $rc -eq 0 ] || failed=1
    done
    CUDA_VISIBLE_DEVICES=-1 bin/cuda_device_info_test >/dev/null 2>&1
    local rc=$?
    echo "skip path exit $rc (want 77)" | tee -a "$OUT/tests.log"
    [ $rc -eq 77 ] || failed=1
    grep -E '^\[  (PASSED|FAILED) ' "$OUT/tests.log"
  fi
  if [ "$phase" = all ] || [ "$phase" = interop ]; then  # GPU proofs of circom circuits (snarkjs keys); the CPU check at 2^24
    for d in interop/*/; do
      local c; c="$(basename "$d")"
      mkdir -p "$OUT/interop/$c"
      cp "$d/vk.json" "$OUT/interop/$c/"
      bin/proofpipe prove --backend cuda "$d/$c.zkey" "$d/$c.wtns" "$OUT/interop/$c/proof.json" \
        "$OUT/interop/$c/public.json" >>"$OUT/interop.log" 2>&1
      echo "gpu prove $c exit $?" | tee -a "$OUT/interop.log"
    done
    echo "=== cuda_prover_bench" >>"$OUT/bench.log"
    timeout 300 bin/cuda_prover_bench --lanes 1 --runs 2 --cpu-check-max-log 24 24 >>"$OUT/bench.log" 2>&1
    echo "bench cuda_prover_bench exit $?" | tee -a "$OUT/bench.log"
    grep -E 'IDENTICAL|DIFFERS|^result partition' "$OUT/bench.log"
  fi
  if [ "$phase" = budgets ]; then  # the streamed path's tests, then each size under every budget
    shift
    local logs=("${@:-26 27}")
    for t in cuda_backend_test cuda_spmv_device_test; do
      local filter="${PP_BACKEND_FILTER:-*}"
      [ "$t" = cuda_spmv_device_test ] && filter="${PP_SPMV_FILTER:-*}"
      timeout "${limit[$t]}" "bin/$t" --gtest_filter="$filter" >>"$OUT/tests.log" 2>&1
      local rc=$?
      echo "test $t exit $rc" | tee -a "$OUT/tests.log"
      [ $rc -eq 0 ] || failed=1
    done
    grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|region [0-9]+:|least budget' "$OUT/tests.log"
    local bargs=(--lanes 2 --runs "${PP_BUDGET_RUNS:-3}" --cpu-check-max-log 0 --vram-budgets-gib "${PP_BUDGETS:-0,48,32,24,16}")
    # shellcheck disable=SC2206
    bargs+=(${PP_BUDGET_ARGS:-})
    # shellcheck disable=SC2068
    echo "=== cuda_prover_bench ${bargs[*]} ${logs[*]}" >>"$OUT/budgets.log"
    # shellcheck disable=SC2068
    timeout 540 bin/cuda_prover_bench "${bargs[@]}" ${logs[@]} >>"$OUT/budgets.log" 2>&1
    echo "bench cuda_prover_bench exit $?" | tee -a "$OUT/budgets.log"
    local gpu; gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    python3 - "$OUT/budgets.log" "$gpu" "$(date -u)" "$(cat commit.txt)" "${bargs[*]} ${logs[*]}" \
      >"$OUT/vram-budgets.json" <<'PY'
import json, sys
runs = []
for line in open(sys.argv[1]):
    if not line.startswith(("budget_run ", "budget_together ")):
        continue
    kv = dict(f.split("=", 1) for f in line.split()[1:])
    def num(k):
        return float(kv[k]) if k in kv else None
    r = {"log_n": int(kv["log_n"]), "budget_gib": None if kv["budget_gib"] == "null" else int(kv["budget_gib"]),
         "h2d_cap_gib_s": None if kv.get("h2d_cap_gib_s", "null") == "null" else float(kv["h2d_cap_gib_s"]),
         "partitions_together": int(kv.get("partitions_together", "1"))}
    if line.startswith("budget_together "):  # the steady phase again, k partitions a start_together
        r.update({k: num(k) for k in ("partition_s", "partitions_per_hour", "steady_partitions_per_hour",
                                      "h2d_gib_per_partition", "peak_vram_gib", "gpu_busy", "lanes_partitions")})
        r["identical"] = kv["identical"] == "true"
    elif kv.get("refused") == "1":
        r["refused"] = True
    else:
        r.update({"partition_s": num("partition_s"), "partitions_per_hour": num("partitions_per_hour"),
                  "h2d_gib_per_partition": num("h2d_gib_per_partition"), "peak_vram_gib": num("peak_vram_gib"),
                  "identical": kv["identical"] == "true", "lanes": int(kv["lanes"]), "plan_gib": num("plan_gib"),
                  "gpu_busy": num("gpu_busy")})
        if "workspaces" in kv:
            r["workspaces"] = int(kv["workspaces"])
        for k in ("lanes_partitions", "steady_partitions_per_hour", "copy_overlap"):
            if k in kv and float(kv[k]) >= 0:
                r[k] = num(k)
    runs.append(r)
extra = {}
for line in open(sys.argv[1]):
    for tag in ("two_keys", "pageable"):
        if line.startswith(tag + " log_n="):
            kv = dict(f.split("=", 1) for f in line.split()[1:])
            extra[tag] = {k: (v == "true" if v in ("true", "false") else float(v)) for k, v in kv.items()}
print(json.dumps({"runs": runs, **extra, "date": sys.argv[3], "gpu": sys.argv[2], "commit": sys.argv[4],
                  "command": "scripts/device_run.sh device budgets (cuda_prover_bench " + sys.argv[5] + ")"}, indent=2))
PY
    grep -E '^budget|^== |^result matrices|IDENTICAL|DIFFER|REFUSED|^two|^pageable|^pinning|^  2\^' "$OUT/budgets.log"
  fi
  if [ "$phase" = c2 ]; then  # whole PoRep C2 proofs through the engine (PP_C2_ARGS: more flags)
    # shellcheck disable=SC2086
    echo "=== proofpipe bench --porep ${PP_C2_ARGS:-}" >>"$OUT/c2.log"
    # shellcheck disable=SC2086
    timeout "${PP_C2_LIMIT:-560}" bin/proofpipe bench --porep ${PP_C2_ARGS:-} >>"$OUT/c2.log" 2>&1
    echo "c2 exit $?" | tee -a "$OUT/c2.log"
    grep -E '^(workload|vram_gib|[-0-9]|result|porep_run)' "$OUT/c2.log"
  fi
  if [ "$phase" = multigpu ]; then  # 1 GPU, then 2 GPUs, then 2 with one failing: multi-gpu.json
    local mg=(--backend cuda --workers 2 --log-constraints 22 --partitions 10 --proofs 6 --witness-threads 4
              --finish-threads 4)
    local t1 t2
    echo "=== proofpipe bench ${mg[*]} --gpus 0" >>"$OUT/multigpu.log"
    timeout 150 bin/proofpipe bench "${mg[@]}" --gpus 0 >>"$OUT/multigpu.log" 2>&1
    echo "1 gpu exit $?" | tee -a "$OUT/multigpu.log"
    t1="$(awk '/^throughput/{v=$2} END{print v}' "$OUT/multigpu.log")"
    echo "=== proofpipe bench ${mg[*]} --gpus 0 1" >>"$OUT/multigpu.log"
    timeout 150 bin/proofpipe bench "${mg[@]}" --gpus 0 1 --trace "$OUT/multigpu-trace.json" >>"$OUT/multigpu.log" 2>&1
    echo "2 gpus exit $?" | tee -a "$OUT/multigpu.log"
    t2="$(awk '/^throughput/{v=$2} END{print v}' "$OUT/multigpu.log")"
    echo "=== proofpipe bench ${mg[*]} --gpus 0 1 --fail-device gpu1" >>"$OUT/multigpu.log"
    timeout 150 bin/proofpipe bench "${mg[@]}" --gpus 0 1 --fail-device gpu1 >>"$OUT/multigpu.log" 2>&1
    echo "2 gpus, gpu1 failing: exit $?" | tee -a "$OUT/multigpu.log"
    local gpus; gpus="$(nvidia-smi --query-gpu=name --format=csv,noheader | paste -sd, -)"
    python3 - "$t1" "$t2" "$gpus" "$(date -u)" "$(cat commit.txt)" >"$OUT/multi-gpu.json" <<'PY'
import json, sys
t1, t2 = float(sys.argv[1] or 0), float(sys.argv[2] or 0)
print(json.dumps({"date": sys.argv[4], "gpus": sys.argv[3], "commit": sys.argv[5],
                  "command": "scripts/device_run.sh device multigpu (proofpipe bench --backend cuda --workers 2 "
                             "--log-constraints 22 --partitions 10 --proofs 6, --gpus 0 then --gpus 0 1)",
                  "proofs_per_hour_1_gpu": t1, "proofs_per_hour_2_gpus": t2,
                  "scaling_1_to_2_gpus": round(t2 / t1, 3) if t1 else None,
                  "trace": "multigpu-trace.json"}, indent=2))
PY
    grep -E '^(===|wall|throughput|device|gpu time)' "$OUT/multigpu.log"; cat "$OUT/multi-gpu.json"
  fi
  if [ "$phase" = vectors ]; then  # k scalar vectors over one streamed table (PP_VECTORS_ARGS: its flags)
    step tests 200 bin/cuda_msm_device_test --gtest_filter='*Streamed*:*Carry*' || failed=1
    # shellcheck disable=SC2086
    step vectors 380 bin/cuda_msm_vectors_bench ${PP_VECTORS_ARGS:-}
    grep -hE '^\[  (PASSED|FAILED) |^\[  FAILED|mismatch|^\| |^device' "$OUT/tests.log" "$OUT/vectors.log"
    cat "$OUT/summary.txt"
  fi
  if [ "$phase" = msm ]; then
    step tests 10 bin/cuda_msm_plan_test || failed=1
    step tests 300 bin/cuda_msm_device_test || failed=1
    step tests 240 bin/cuda_msm_precompute_test || failed=1
    step tests 150 bin/cuda_backend_test --gtest_filter='*Streamed*:*SmallCircuits*:*PoRepLike*' || failed=1
    step msm 180 bin/cuda_msm_bench 24 26 27 g2:24 g2:25 bn254:24
    if [ -x bin/ref_bench ]; then step ref 100 bin/ref_bench g1:24 g1:26 g2:24 g1host:24 ntt:27; fi
    step read 120 bin/formats_params_read_bench 24 27 runs=1
    step partition 240 bin/cuda_prover_bench --lanes 1 --runs 3 --cpu-check-max-log 0 27
    grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|mismatch' "$OUT/tests.log"
    grep -hE '^\| |^result |key upload|gpu total|^msm|^lanes' "$OUT"/msm.log "$OUT"/ref.log "$OUT"/read.log \
      "$OUT"/partition.log 2>/dev/null
    cat "$OUT/summary.txt"
  fi
  if [ "$phase" = all ] || [ "$phase" = partitions ]; then  # with the time one call allows
    echo "=== cuda_prover_bench" >>"$OUT/bench.log"
    local pargs="${args[cuda_prover_bench]}"
    # Within all, the CPU proof at 2^26 (~110 s) would push the call past 600 s; interop compares at 2^24.
    [ "$phase" = all ] && pargs="${pargs/--cpu-check-max-log 26/--cpu-check-max-log 0}"
    # shellcheck disable=SC2086
    timeout "${limit[cuda_prover_bench]}" bin/cuda_prover_bench $pargs >>"$OUT/bench.log" 2>&1
    echo "bench cuda_prover_bench exit $?" | tee -a "$OUT/bench.log"
    python3 "$stage/h200_json.py" "$OUT/env.txt" "$OUT/h200.json" "$OUT/bench.log" \
      --command "scripts/device_run.sh device partitions" >/dev/null
    grep -E '^result |^lanes|^== |upload|gpu total' "$OUT/bench.log"
  fi
  if [ "$phase" = all ] || [ "$phase" = bench ]; then
    for b in "${benches[@]}"; do
      echo "=== $b" >>"$OUT/bench.log"
      # shellcheck disable=SC2086
      timeout "${limit[$b]}" "bin/$b" ${args[$b]:-} >>"$OUT/bench.log" 2>&1
      echo "bench $b exit $?" | tee -a "$OUT/bench.log"
    done
    echo "=== proofpipe bench ${engine_bench[*]}" >>"$OUT/bench.log"
    timeout 150 bin/proofpipe bench "${engine_bench[@]}" --trace "$OUT/engine-trace.json" >>"$OUT/bench.log" 2>&1
    echo "bench proofpipe exit $?" | tee -a "$OUT/bench.log"
    python3 "$stage/h200_json.py" "$OUT/env.txt" "$OUT/h200.json" "$OUT/bench.log" \
      --command "scripts/device_run.sh device $phase" >/dev/null
    grep -E '^result |busy|throughput|gpu time' "$OUT/bench.log"
  fi
  return $failed
}

verify_interop() {  # here, on a fetched $OUT: snarkjs verifies each GPU proof
  local from="${1:?usage: device_run.sh verify_interop DIR}" failed=0
  for d in "$from"/interop/*/; do
    if node "$here/tools/oracle/node_modules/snarkjs/cli.js" groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json"; then
      echo "snarkjs verifies the GPU proof of $(basename "$d")"
    else
      echo "snarkjs REJECTS the GPU proof of $(basename "$d")"; failed=1
    fi
  done
  return $failed
}

collect() {
  [ $# -ge 1 ] || { echo "usage: device_run.sh collect DIR..." >&2; return 2; }
  local logs=()
  for d in "$@"; do logs+=("$d/bench.log"); done
  python3 "$here/scripts/h200_json.py" "${@: -1}/env.txt" "$here/docs/perf/h200.json" "${logs[@]}" \
    --command "scripts/device_run.sh device (phases: $*)"
}

cmd="${1:?usage: device_run.sh build | device [tests|bench|partitions|interop|budgets|multigpu|msm|all] | collect DIR}"
shift
"$cmd" "$@"

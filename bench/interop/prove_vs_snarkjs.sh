#!/usr/bin/env bash
# Times `proofpipe prove` against `snarkjs groth16 prove` on the same zkey and witness, for circom
# circuits from ~2^12 to 2^16 constraints (MiMC7 chains of k hashes, SHA-256 of 64 bytes), and
# prints a table with the ratio. Keys come from `proofpipe setup` (snarkjs layout): a snarkjs ptau
# that large is too slow to prepare here. Both proofs are checked with `snarkjs groth16 verify`.
# Not part of ctest (minutes). Results and method: docs/perf/cpu-prove-vs-snarkjs.md.
#
#   bench/interop/prove_vs_snarkjs.sh [build-dir] [runs]      (defaults: build/release, 3)
#   PP_BENCH_CIRCUITS="mimc:8 mimc:80 sha256" to pick circuits.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build/release}" && pwd)
runs=${2:-3}
circuits=${PP_BENCH_CIRCUITS:-"mimc:8 mimc:16 mimc:40 mimc:80 sha256"}
modules=tools/oracle/node_modules
proofpipe="$build/proofpipe"
snarkjs="node $root/$modules/snarkjs/cli.js"
[ -x "$proofpipe" ] || { echo "no proofpipe at $proofpipe: build it first" >&2; exit 1; }
[ -e "$root/$modules/snarkjs/cli.js" ] || { echo "missing $modules (npm ci in tools/oracle)" >&2; exit 1; }

cd "$root"  # circom2's WASI sandbox resolves includes only below the working directory
work="$build/bench_interop"
mkdir -p "$work"
rel_work=$(realpath --relative-to="$root" "$work")

now() { date +%s.%N; }
# best (minimum) wall time of `runs` runs of a command, in seconds
best_of() {
  local best="" t0 t1 d
  for _ in $(seq "$runs"); do
    t0=$(now); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; t1=$(now)
    d=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$d < $best" | bc -l)" = 1 ]; then best=$d; fi
  done
  printf '%.3f' "$best"
}

rows=()
for spec in $circuits; do
  case $spec in
    mimc:*) k=${spec#mimc:}; name=mimc_$k
      sed "s/MimcChain(16)/MimcChain($k)/" tests/fixtures/circuits/mimc_chain.circom > "$work/$name.circom"
      input=tests/fixtures/circuits/mimc_chain.json ;;
    sha256) name=sha256_64
      cp tests/fixtures/circuits/sha256_64.circom "$work/$name.circom"
      input=tests/fixtures/circuits/sha256_64.json ;;
    *) echo "unknown circuit $spec" >&2; exit 1 ;;
  esac
  d=$rel_work/$name
  mkdir -p "$d"
  if [ ! -s "$d/$name.zkey" ]; then
    echo "== $name: compile, witness, proofpipe setup" >&2
    node $modules/circom2/cli.js "$rel_work/$name.circom" --r1cs --wasm --O2 -p bls12381 -l $modules -o "$d" >/dev/null
    node "$d/${name}_js/generate_witness.js" "$d/${name}_js/$name.wasm" "$input" "$d/$name.wtns"
    "$proofpipe" --quiet setup "$d/$name.r1cs" "$d/$name.zkey" --vk "$d/vk.json" 2>/dev/null
  fi
  constraints=$($snarkjs r1cs info "$d/$name.r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
  # one untimed run (warm-up) that also reports the domain size
  domain=$("$proofpipe" prove "$d/$name.zkey" "$d/$name.wtns" "$d/pp_proof.json" "$d/pp_public.json" 2>&1 | sed -n 's/.*domain \([0-9]*\).*/\1/p')
  echo "== $name: $constraints constraints, domain $domain; timing $runs run(s) each" >&2
  t_pp=$(best_of "$proofpipe" --quiet prove "$d/$name.zkey" "$d/$name.wtns" "$d/pp_proof.json" "$d/pp_public.json")
  t_sj=$(best_of $snarkjs groth16 prove "$d/$name.zkey" "$d/$name.wtns" "$d/sj_proof.json" "$d/sj_public.json")
  $snarkjs groth16 verify "$d/vk.json" "$d/pp_public.json" "$d/pp_proof.json" >/dev/null || { echo "snarkjs rejects our $name proof" >&2; exit 1; }
  "$proofpipe" --quiet verify "$d/vk.json" "$d/sj_public.json" "$d/sj_proof.json" >/dev/null || { echo "we reject snarkjs's $name proof" >&2; exit 1; }
  cmp -s "$d/pp_public.json" "$d/sj_public.json" || { echo "public.json differs for $name" >&2; exit 1; }
  log_n=$(printf '%.0f' "$(echo "l($domain)/l(2)" | bc -l)")
  rows+=("$(printf '| %-10s | %11s | %6s | %13s | %11s | %18.1fx |' "$name" "$constraints" "2^$log_n" "$t_pp" "$t_sj" \
    "$(echo "$t_sj / $t_pp" | bc -l)")")
done

echo
echo "proofpipe prove vs snarkjs groth16 prove (best of $runs, wall seconds; both verified by snarkjs)"
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| circuit    | constraints | domain | proofpipe (s) | snarkjs (s) | snarkjs / proofpipe |"
echo "|------------|-------------|--------|---------------|-------------|---------------------|"
printf '%s\n' "${rows[@]}"

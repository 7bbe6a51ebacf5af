#!/usr/bin/env bash
# Times `proofpipe prove` against `snarkjs groth16 prove` on the same zkey and witness, for circom
# circuits from ~2^12 to 2^16 constraints (MiMC7 chains of k hashes, SHA-256 of 64 bytes), and
# prints a table with the ratio. Keys come from `proofpipe setup` (snarkjs layout): a snarkjs ptau
# that large is too slow to prepare here. Both proofs are checked with `snarkjs groth16 verify`.
# The two tools alternate run by run, so on a shared host both see the same load; besides the best
# wall time of each, the table gives each tool's median CPU time (user + sys) per proof and their
# ratio, which moves far less with the load than wall time does.
# Not part of ctest (minutes). Results and method: docs/perf/cpu-prove-vs-snarkjs.md.
#
#   bench/interop/prove_vs_snarkjs.sh [build-dir] [runs]      (defaults: build/release, 3)
#   PP_BENCH_CIRCUITS="mimc:8 mimc:80 sha256" to pick circuits.
#   PP_BENCH_CURVE=bn128 to compile them for BN254 (default bls12381).
#   PP_RAPIDSNARK=/path/to/rapidsnark/prover to time rapidsnark too (BN254 only: its field code is
#   bn128's), alternated with the other two, its proofs verified by snarkjs; two more columns.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build/release}" && pwd)
runs=${2:-3}
circuits=${PP_BENCH_CIRCUITS:-"mimc:8 mimc:16 mimc:40 mimc:80 sha256"}
curve=${PP_BENCH_CURVE:-bls12381}
case $curve in bls12381 | bn128) ;; *) echo "PP_BENCH_CURVE must be bls12381 or bn128" >&2; exit 1 ;; esac
rapidsnark=${PP_RAPIDSNARK:-}
if [ -n "$rapidsnark" ]; then
  [ "$curve" = bn128 ] || { echo "PP_RAPIDSNARK needs PP_BENCH_CURVE=bn128" >&2; exit 1; }
  [ -x "$rapidsnark" ] || { echo "no rapidsnark prover at $rapidsnark" >&2; exit 1; }
fi
modules=tools/oracle/node_modules
proofpipe="$build/proofpipe"
snarkjs="node $root/$modules/snarkjs/cli.js"
[ -x "$proofpipe" ] || { echo "no proofpipe at $proofpipe: build it first" >&2; exit 1; }
[ -e "$root/$modules/snarkjs/cli.js" ] || { echo "missing $modules (npm ci in tools/oracle)" >&2; exit 1; }

cd "$root"  # circom2's WASI sandbox resolves includes only below the working directory
work="$build/bench_interop/$curve"
mkdir -p "$work"
rel_work=$(realpath --relative-to="$root" "$work")

now() { date +%s.%N; }
# One timed run of a command: prints "wall cpu" in seconds (cpu = user + sys of the command's tree).
timed_run() {
  local t0 t1 tf
  tf=$(mktemp)
  t0=$(now)
  /usr/bin/time -f '%U %S' -o "$tf" "$@" >/dev/null 2>&1 || { rm -f "$tf"; echo "failed: $*" >&2; exit 1; }
  t1=$(now)
  echo "$(echo "$t1 - $t0" | bc -l) $(awk '{print $1 + $2}' "$tf")"
  rm -f "$tf"
}
min_of() { printf '%s\n' "$@" | sort -g | head -1; }
median_of() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

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
    node $modules/circom2/cli.js "$rel_work/$name.circom" --r1cs --wasm --O2 -p $curve -l $modules -o "$d" >/dev/null
    node "$d/${name}_js/generate_witness.js" "$d/${name}_js/$name.wasm" "$input" "$d/$name.wtns"
    "$proofpipe" --quiet setup "$d/$name.r1cs" "$d/$name.zkey" --vk "$d/vk.json" 2>/dev/null
  fi
  constraints=$($snarkjs r1cs info "$d/$name.r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
  # one untimed run (warm-up) that also reports the domain size
  domain=$("$proofpipe" prove "$d/$name.zkey" "$d/$name.wtns" "$d/pp_proof.json" "$d/pp_public.json" 2>&1 | sed -n 's/.*domain \([0-9]*\).*/\1/p')
  echo "== $name: $constraints constraints, domain $domain; timing $runs run(s) each" >&2
  pp_wall=() pp_cpu=() sj_wall=() sj_cpu=() rs_wall=() rs_cpu=()
  for _ in $(seq "$runs"); do  # alternate the tools, so both see the same load
    read -r w c < <(timed_run "$proofpipe" --quiet prove "$d/$name.zkey" "$d/$name.wtns" "$d/pp_proof.json" "$d/pp_public.json")
    pp_wall+=("$w") pp_cpu+=("$c")
    read -r w c < <(timed_run $snarkjs groth16 prove "$d/$name.zkey" "$d/$name.wtns" "$d/sj_proof.json" "$d/sj_public.json")
    sj_wall+=("$w") sj_cpu+=("$c")
    if [ -n "$rapidsnark" ]; then
      read -r w c < <(timed_run "$rapidsnark" "$d/$name.zkey" "$d/$name.wtns" "$d/rs_proof.json" "$d/rs_public.json")
      rs_wall+=("$w") rs_cpu+=("$c")
    fi
  done
  t_pp=$(min_of "${pp_wall[@]}") t_sj=$(min_of "${sj_wall[@]}")
  c_pp=$(median_of "${pp_cpu[@]}") c_sj=$(median_of "${sj_cpu[@]}")
  $snarkjs groth16 verify "$d/vk.json" "$d/pp_public.json" "$d/pp_proof.json" >/dev/null || { echo "snarkjs rejects our $name proof" >&2; exit 1; }
  "$proofpipe" --quiet verify "$d/vk.json" "$d/sj_public.json" "$d/sj_proof.json" >/dev/null || { echo "we reject snarkjs's $name proof" >&2; exit 1; }
  cmp -s "$d/pp_public.json" "$d/sj_public.json" || { echo "public.json differs for $name" >&2; exit 1; }
  log_n=$(printf '%.0f' "$(echo "l($domain)/l(2)" | bc -l)")
  row=$(printf '| %-10s | %11s | %6s | %13.3f | %11.3f | %18.1fx | %8.2f | %8.2f | %8.1fx |' "$name" "$constraints" \
    "2^$log_n" "$t_pp" "$t_sj" "$(echo "$t_sj / $t_pp" | bc -l)" "$c_pp" "$c_sj" "$(echo "$c_sj / $c_pp" | bc -l)")
  if [ -n "$rapidsnark" ]; then
    $snarkjs groth16 verify "$d/vk.json" "$d/rs_public.json" "$d/rs_proof.json" >/dev/null || { echo "snarkjs rejects rapidsnark's $name proof" >&2; exit 1; }
    t_rs=$(min_of "${rs_wall[@]}") c_rs=$(median_of "${rs_cpu[@]}")
    row+=$(printf ' %14.3f | %14.2fx | %8.2f | %12.2fx |' "$t_rs" "$(echo "$t_rs / $t_pp" | bc -l)" "$c_rs" "$(echo "$c_rs / $c_pp" | bc -l)")
  fi
  rows+=("$row")
done

echo
echo "proofpipe prove vs snarkjs groth16 prove ($curve), $runs alternated runs each (wall: best; CPU = user + sys: median; both verified by snarkjs)"
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
head="| circuit    | constraints | domain | proofpipe (s) | snarkjs (s) | snarkjs / proofpipe | pp CPU s | sj CPU s | CPU ratio |"
rule="|------------|-------------|--------|---------------|-------------|---------------------|----------|----------|-----------|"
if [ -n "$rapidsnark" ]; then
  head+=" rapidsnark (s) | rs / proofpipe | rs CPU s | rs CPU ratio |"
  rule+="----------------|----------------|----------|--------------|"
fi
echo "$head"
echo "$rule"
printf '%s\n' "${rows[@]}"

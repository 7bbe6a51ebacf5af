#!/usr/bin/env bash
# Session 35, call 2: issue 34's whole table in one invocation with session 34's build (pk, f92db36:
# a group's witnesses packed under its GPU work; main's code since, but for comments, docs and a
# warning fix): five together, three proofs a configuration, the key's share 0.7 (the default), own
# link and 25 GiB/s, unlimited, 24 and 16 GiB (session 33's call 3 with this binary). First, main's
# MSM benchmark (b33e906) at 2^24 over precomputed bases at wider windows: how far fewer additions go.
set -u
st=.devstage/run
mkdir -p $st
for t in libs pk f64; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-592} - SECONDS + t0 )); }
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > "$OUT/env.txt"
echo "pk $(cat $st/pk/commit.txt) $(cat $st/pk/dirty.txt | tr '\n' ' ')" >> "$OUT/env.txt"
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
timeout 100 $st/f64/bin/cuda_msm_bench_main 24 c=0,22,24 pre=2,16 > "$OUT/msm-pre.log" 2>&1
echo "msm pre exit $? ($((SECONDS - t0)) s)"; grep -E "^\|" "$OUT/msm-pre.log" | cut -c1-200
bench=($st/pk/bin/proofpipe bench --porep --proofs 3 --memory-mib 120000 --together 5 --together-wait-ms 20)
timeout $(left) "${bench[@]}" --vram-gib 0,24,16 --h2d-gib-s 0,25 > "$OUT/c2-k5-table.log" 2>&1
echo "c2 k5 exit $? ($((SECONDS - t0)) s)"; grep -E '^porep_run' "$OUT/c2-k5-table.log" | cut -c1-250
cat "$OUT/env.txt"

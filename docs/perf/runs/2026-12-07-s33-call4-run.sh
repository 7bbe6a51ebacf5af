#!/usr/bin/env bash
# Session 33, call 4: the plans behind call 3's table (host-only, the same binary on the same
# machine): unlimited, 24 and 16 GiB for the PoRep-shaped 2^27 key, five together.
set -u
st=.devstage/run
mkdir -p $st
for t in libs rc; do tar -C $st -xJf .devstage/$t.tar.xz; done
t0=$SECONDS
left() { echo $(( ${LIMIT:-400} - SECONDS + t0 )); }
export LD_LIBRARY_PATH=$PWD/$st/lib:$PWD/$st/lib_cxx
for b in 0 24 16; do
  timeout $(left) $st/rc/bin/proofpipe plan --porep-log 27 --budget-gib $b --link-gib-s 25 --driver-mib 460 > "$OUT/plan-$b.txt" 2>&1
  echo "plan $b exit $? ($((SECONDS - t0)) s)"
done

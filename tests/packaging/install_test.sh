#!/usr/bin/env bash
# install_test.sh BUILD SOURCE LIBDIR C2_FIXTURE WORK: `cmake --install --prefix` as a Filecoin build
# and an operator meet it. Installs BUILD into WORK/prefix and checks the layout
# (cmake/pp_install.cmake); builds tests/c2/c2_driver.c against the installed library with nothing
# but `pkg-config --cflags --libs proofpipe_c2` (and once statically, with `--static`'s private
# libraries); proves a small circuit (C2_FIXTURE make, 2^10) through the ABI on the CPU; and has the
# installed `proofpipe verify` accept each proof and refuse a tampered one. A reinstall keeps an
# edited configuration.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: install_test.sh BUILD SOURCE LIBDIR C2_FIXTURE WORK" >&2; exit 2; }
build=$1 source=$2 libdir=$3 fixture=$4 work=$5
fail() { echo "install_test: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

for f in bin/proofpipe "$libdir/libproofpipe_c2.so" "$libdir/libproofpipe_c2.so.0" "$libdir/libproofpipe_c2.a" \
         "$libdir/pkgconfig/proofpipe_c2.pc" include/proofpipe/proofpipe_c2.h lib/systemd/system/proofpipe.service \
         etc/proofpipe/proofpipe.toml share/doc/proofpipe/proofpipe.txt share/doc/proofpipe/proofpipe.example.toml \
         share/doc/proofpipe/operations.md share/doc/proofpipe/c2_abi.md; do
  [ -e "$prefix/$f" ] || fail "$f was not installed (install log: $work/install.log)"
done
grep -qx "ExecStart=$prefix/bin/proofpipe serve --config $prefix/etc/proofpipe/proofpipe.toml" \
  "$prefix/lib/systemd/system/proofpipe.service" || fail "the unit does not start the installed binary"
grep -q "proofpipe verify" "$prefix/share/doc/proofpipe/proofpipe.txt" || fail "the help page lacks the verify command"
"$prefix/bin/proofpipe" --version >/dev/null || fail "the installed proofpipe does not run"

export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
[ "$(pkg-config --variable=prefix proofpipe_c2)" = "$prefix" ] || fail "proofpipe_c2.pc names another prefix"
# c2_driver.c includes "proofpipe_c2.h": only the installed one is on the path (src/c2 is not).
read -r -a flags <<<"$(pkg-config --cflags --libs proofpipe_c2)"
cc -O2 "$source/tests/c2/c2_driver.c" -I"$source/tests/c2" "${flags[@]}" -lpthread -o "$work/consumer"
deps=$(LD_LIBRARY_PATH="$prefix/$libdir" ldd "$work/consumer")
[[ $deps == *"libproofpipe_c2.so.0 => $prefix/$libdir/"* ]] || fail "the consumer does not load the installed library"
# Statically: the archive, then `--static`'s libraries without the shared library itself.
read -r -a cflags <<<"$(pkg-config --cflags proofpipe_c2)"
private=()
for f in $(pkg-config --static --libs proofpipe_c2); do
  [ "$f" = -lproofpipe_c2 ] || private+=("$f")
done
cc -O2 "$source/tests/c2/c2_driver.c" -I"$source/tests/c2" "${cflags[@]}" "$prefix/$libdir/libproofpipe_c2.a" \
  "${private[@]}" -lpthread -o "$work/consumer_static"
deps=$(ldd "$work/consumer_static")
[[ $deps != *proofpipe_c2* ]] || fail "the static consumer still needs libproofpipe_c2.so"

mkdir -p "$work/circuit"
"$fixture" make "$work/circuit" 10 2 random
printf '[engine]\nbackend = "cpu"\n' >"$work/cpu.toml"
for consumer in consumer consumer_static; do
  PROOFPIPE_C2_CONFIG="$work/cpu.toml" LD_LIBRARY_PATH="$prefix/$libdir" \
    "$work/$consumer" "$work/circuit" "$work/$consumer.proofs.bin"
  mkdir -p "$work/$consumer.cli"
  "$fixture" export "$work/circuit" "$work/$consumer.proofs.bin" "$work/$consumer.cli"
  for k in 0 1; do
    "$prefix/bin/proofpipe" --quiet verify --proof-format bellperson "$work/$consumer.cli/verification_key.json" \
      "$work/$consumer.cli/public.json" "$work/$consumer.cli/proof.$k.bin" >"$work/verify.out" ||
      fail "$consumer: proof $k does not verify: $(cat "$work/verify.out")"
  done
done
# The check is a real one: the proof with one byte of its A point's x coordinate changed is refused.
cli="$work/consumer.cli"
cp "$cli/proof.0.bin" "$cli/tampered.bin"
byte=$(od -An -tu1 -j40 -N1 "$cli/tampered.bin")
printf "\\$(printf %03o $((byte ^ 1)))" | dd of="$cli/tampered.bin" bs=1 seek=40 conv=notrunc status=none
cmp -s "$cli/proof.0.bin" "$cli/tampered.bin" && fail "the tampered copy equals the proof"
if "$prefix/bin/proofpipe" --quiet verify --proof-format bellperson "$cli/verification_key.json" "$cli/public.json" \
  "$cli/tampered.bin" >"$work/verify.out"; then
  fail "a tampered proof verified"
fi

echo "# edited" >>"$prefix/etc/proofpipe/proofpipe.toml"
cmake --install "$build" --prefix "$prefix" >"$work/reinstall.log"
grep -q "^# edited" "$prefix/etc/proofpipe/proofpipe.toml" || fail "a reinstall overwrote the edited configuration"
echo "install_test: installed into $prefix; 4 proofs from the pkg-config builds verify with the installed proofpipe"

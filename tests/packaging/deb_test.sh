#!/usr/bin/env bash
# deb_test.sh BUILD VERSION LIBDIR WORK: the Debian package as `cpack -G DEB` makes it from BUILD
# (cmake/pp_package.cmake). Checks its control fields and members (dpkg-deb -I), its file list
# (dpkg-deb -c), the maintainer scripts' syntax; unpacks it (dpkg-deb -x) and runs the unpacked
# binary's demo; and has `systemd-analyze verify` accept its unit, the unit's paths moved into the
# unpacked tree (skipped where systemd-analyze is missing: Debian package systemd).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: deb_test.sh BUILD VERSION LIBDIR WORK" >&2; exit 2; }
build=$1 version=$2 libdir=$3 work=$4
fail() { echo "deb_test: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" || fail "cpack failed: $(cat "$work/cpack.log")"
arch=$(dpkg --print-architecture)
deb="$work/proofpipe_${version}_${arch}.deb"
[ -f "$deb" ] || fail "no $deb (cpack log: $work/cpack.log)"

info=$(dpkg-deb -I "$deb")
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = proofpipe ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
# Runtime dependencies by Debian package name: adduser for the postinst, the rest from dpkg-shlibdeps.
for d in adduser libc6 libstdc++6 libtbb libspdlog libfmt libtomlplusplus libgrpc++ libprotobuf; do
  [[ ", $depends" == *", $d"* ]] || fail "Depends lacks $d: $depends"
done
for member in postinst prerm postrm conffiles triggers shlibs md5sums; do
  [[ $info == *" $member "* ]] || fail "the control archive lacks $member"
done

mkdir -p "$work/control"
dpkg-deb -e "$deb" "$work/control"
[ "$(cat "$work/control/conffiles")" = /etc/proofpipe/proofpipe.toml ] || fail "conffiles: $(cat "$work/control/conffiles")"
grep -qx "activate-noawait ldconfig" "$work/control/triggers" || fail "no ldconfig trigger"
grep -q "^libproofpipe_c2 0 proofpipe" "$work/control/shlibs" || fail "shlibs: $(cat "$work/control/shlibs")"
for s in postinst prerm postrm; do
  [ -x "$work/control/$s" ] || fail "$s is not executable"
  sh -n "$work/control/$s" || fail "$s does not parse"
done
grep -q "adduser --system" "$work/control/postinst" || fail "the postinst makes no system user"
grep -q "purge)" "$work/control/postrm" || fail "the postrm does not tell purge from remove"

list=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/proofpipe "./usr/$libdir/libproofpipe_c2.so" "./usr/$libdir/libproofpipe_c2.so.0" \
         "./usr/$libdir/libproofpipe_c2.a" "./usr/$libdir/pkgconfig/proofpipe_c2.pc" \
         ./usr/include/proofpipe/proofpipe_c2.h ./usr/lib/systemd/system/proofpipe.service \
         ./etc/proofpipe/proofpipe.toml ./usr/share/doc/proofpipe/proofpipe.txt \
         ./usr/share/doc/proofpipe/proofpipe.example.toml ./usr/share/doc/proofpipe/operations.md; do
  grep -qxF "$f" <<<"$list" || fail "the package lacks $f"
done
outside=$(grep -vE '^\./(usr|etc)/' <<<"$list" | grep -vx './' || true)
[ -z "$outside" ] || fail "files outside /usr and /etc: $outside"

root="$work/root"
dpkg-deb -x "$deb" "$root"
unit="$root/usr/lib/systemd/system/proofpipe.service"
grep -qx "ExecStart=/usr/bin/proofpipe serve --config /etc/proofpipe/proofpipe.toml" "$unit" || fail "ExecStart: $(grep ^ExecStart "$unit")"
for setting in NoNewPrivileges=true PrivateTmp=true ProtectSystem=strict LimitMEMLOCK=infinity Restart=on-failure \
               'ExecReload=/bin/kill -HUP $MAINPID' User=proofpipe; do
  grep -qxF "$setting" "$unit" || fail "the unit lacks $setting"
done
grep -q "^LimitNOFILE=" "$unit" || fail "the unit sets no LimitNOFILE"
grep -qx "prefix=/usr" "$root/usr/$libdir/pkgconfig/proofpipe_c2.pc" || fail "the .pc file's prefix is not /usr"
"$root/usr/bin/proofpipe" --quiet demo --constraints 200 || fail "the unpacked proofpipe's demo failed"

if command -v systemd-analyze >/dev/null; then
  mkdir -p "$work/unit"
  sed "s|=/usr/bin/proofpipe |=$root/usr/bin/proofpipe |" "$unit" >"$work/unit/proofpipe.service"
  # It exits 0 on a setting it cannot parse or does not know ("..., ignoring"): any word on the unit fails too.
  said=$(systemd-analyze verify "$work/unit/proofpipe.service" 2>&1) || fail "systemd-analyze verify refused the unit: $said"
  [[ $said != *proofpipe.service* ]] || fail "systemd-analyze verify: $said"
  echo "deb_test: systemd-analyze verify accepts the unit"
else
  echo "deb_test: systemd-analyze not found (Debian package systemd): the unit's systemd check skipped"
fi
echo "deb_test: $deb checked"

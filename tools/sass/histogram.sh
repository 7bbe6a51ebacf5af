#!/usr/bin/env bash
# SASS of sm_90 kernels on the dev machine, which has nvcc but no cuobjdump or nvdisasm: compiles a
# .cu file to a cubin with the build's include dirs, disassembles it with nvdisasm from Debian's
# nvidia-cuda-toolkit package (non-free, 11.8: fetched once with apt-get download into a cache and
# unpacked there, nothing installed), and prints each kernel's instruction count and opcode mix.
#   tools/sass/histogram.sh FILE.cu [nvcc flags...]    (e.g. -DNAME=1; sass in $PP_SASS_CACHE/out.sass)
# nvdisasm 11.8 does not read CUDA 13's cubin header (ELF ABI version 8, new e_flags layout), so the
# copy it reads gets the old header (ABI 7, e_flags 0x5a055a: sm_90); the code bytes are unchanged.
# Used to find the Fr product's unfused lo/hi pairs (docs/perf/ntt-h200.md, "Fr reduction fused").
set -euo pipefail
src="${1:?usage: histogram.sh FILE.cu [nvcc flags]}"; shift
here="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${PP_SASS_CACHE:-$HOME/.cache/proofpipe-sass}"
build="${PP_BUILD_DIR:-$here/build/release}"
nvdisasm="$cache/toolkit/usr/bin/nvdisasm"
if [ ! -x "$nvdisasm" ]; then
  mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial"
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    >"$cache/apt/non-free.sources"
  apt_opts=(-o Dir::Etc::SourceList="$cache/apt/non-free.sources" -o Dir::Etc::SourceParts=/dev/null
            -o Dir::State::Lists="$cache/apt/lists" -o Dir::Cache::Archives="$cache/apt/archives")
  apt-get "${apt_opts[@]}" update >/dev/null
  (cd "$cache" && apt-get "${apt_opts[@]}" download nvidia-cuda-toolkit >/dev/null 2>&1) ||
    { echo "histogram.sh: could not download nvidia-cuda-toolkit from Debian's non-free" >&2; exit 1; }
  dpkg-deb -x "$cache"/nvidia-cuda-toolkit_*.deb "$cache/toolkit"
fi
includes=()
for d in "$build"/include/*; do includes+=(-I"$d"); done
nvcc -O3 -std=c++20 -arch=sm_90 -cubin "${includes[@]}" "$@" -o "$cache/out.cubin" "$src"
python3 - "$cache/out.cubin" "$cache/out_abi7.cubin" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
d[8] = 7                                   # e_ident[EI_ABIVERSION]
struct.pack_into("<I", d, 0x30, 0x005A055A)  # e_flags: sm_90, 64-bit addresses (the pre-12.8 layout)
open(sys.argv[2], "wb").write(d)
PY
"$nvdisasm" "$cache/out_abi7.cubin" >"$cache/out.sass"
python3 - "$cache/out.sass" <<'PY'
import collections, re, sys
kernels = collections.OrderedDict()
cur = None
for line in open(sys.argv[1]):
    m = re.match(r"\s*\.text\.(\S+):", line)
    if m:
        cur = kernels.setdefault(m.group(1), collections.Counter())
        continue
    m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and cur is not None:
        cur[m.group(2)] += 1
for name, ops in kernels.items():
    print(f"{name}: {sum(ops.values())} instructions")
    print("   " + ", ".join(f"{op} {n}" for op, n in ops.most_common(16)))
PY

#!/usr/bin/env bash
# Installs everything proofpipe needs on Debian 12 (packages by name), then the npm oracles the
# test suite drives (pinned in tools/oracle/package-lock.json). Safe to run again.
# The CUDA toolkit is optional and not installed here: with nvcc on PATH or in /usr/local/cuda the
# build adds the GPU backend, without it the CPU backend is built alone. dpkg-dev and file: `cpack -G
# DEB` finds the package's dependencies with dpkg-shlibdeps, on the binaries file(1) recognises;
# systemd: `systemd-analyze verify` checks the unit (tests/packaging).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build lld g++ clang libclang-rt-14-dev git python3
  libgmp-dev libspdlog-dev libfmt-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libtbb-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libpqxx-dev libssl-dev postgresql
  pkg-config libcpp-httplib-dev
  dpkg-dev file systemd
)
# Node.js runs the test oracles; a node that came from elsewhere (e.g. a nodesource package that
# bundles npm and conflicts with Debian's npm) is used as it is.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -d tools/oracle/node_modules ] || [ tools/oracle/package-lock.json -nt tools/oracle/node_modules ]; then
  (cd tools/oracle && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "dependencies ready"

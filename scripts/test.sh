#!/usr/bin/env bash
# The whole test suite: the release build's ctest (unit, oracle, slow; gpu tests skip without a GPU),
# then the libFuzzer targets for a bounded time under clang (fuzz preset).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake --preset release
cmake --build --preset release
ctest --preset release
cmake --preset fuzz
cmake --build --preset fuzz --target fuzz_targets
ctest --preset fuzz

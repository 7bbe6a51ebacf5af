#!/usr/bin/env bash
# The whole test suite: the release build's ctest (unit, oracle, slow; gpu tests skip without a GPU),
# then the libFuzzer targets for a bounded time under clang (fuzz preset), then the thread-safety
# build (tsan preset: one clang build with -Werror=thread-safety and ThreadSanitizer, of the tests
# labelled tsan and what they need) and those tests under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake --preset release
cmake --build --preset release
ctest --preset release
cmake --preset fuzz
cmake --build --preset fuzz --target fuzz_targets
ctest --preset fuzz
cmake --preset tsan
cmake --build --preset tsan
ctest --preset tsan

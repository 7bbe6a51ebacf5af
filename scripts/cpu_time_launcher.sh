#!/bin/sh
# A compiler and linker launcher that measures: runs the command and appends one line to
# $PP_CPU_TIME_LOG, "user_s system_s wall_s output", the CPU time of the command and all it ran (nvcc's
# cicc and ptxas, g++'s collect2 and ld). CPU seconds hold on a machine others load; wall does not.
# Needs /usr/bin/time (Debian package time). Used for docs/perf/ci-time.md; e.g. with no ccache:
#   cmake --preset release -B build/measure -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/scripts/cpu_time_launcher.sh \
#     -DCMAKE_CUDA_COMPILER_LAUNCHER=... -DCMAKE_CXX_LINKER_LAUNCHER=... -DPP_TEST_PCH=ON
#   PP_CPU_TIME_LOG=$PWD/cpu.log cmake --build build/measure
set -eu
: "${PP_CPU_TIME_LOG:?set PP_CPU_TIME_LOG to the log file}"
out=-
prev=
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
exec /usr/bin/time -a -o "$PP_CPU_TIME_LOG" -f "%U %S %e $out" "$@"

#!/usr/bin/env python3
"""Time per kernel in each call of a repeated operation, from ncu's per-launch CSV.

Reads what `ncu --csv --metrics gpu__time_duration.sum` prints (one row per kernel launch, in launch
order), cuts the launches into calls at every launch whose kernel's unqualified name starts with
MARKER (the benchmark's input-filling kernel, launched once before each timed call), drops the
first SKIP calls (the warm-up) and any call with fewer launches than the others (one that ncu's
--launch-count cut short), and prints each kernel's mean milliseconds per call, largest first, with
its share of the call: where one MSM's time goes when a benchmark runs it several times, which
kernel_sums.py's per-kernel summary mixes with the other cases of the run. Usage:
  tools/ncu/call_sums.py NCU_CSV MARKER [SKIP] [CALLS]
CALLS (default: all) keeps at most that many calls after the skipped ones.
"""
import csv
import sys
from collections import defaultdict

from kernel_sums import SCALE  # ncu's time units in ms; this script's directory is on sys.path


def short_name(name: str) -> str:
    name = name.removeprefix("void ")
    return name.split("<")[0].split("(")[0]


def main() -> int:
    if len(sys.argv) not in (3, 4, 5):
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    marker = sys.argv[2]
    skip = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    keep = int(sys.argv[4]) if len(sys.argv) > 4 else None
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own ==PROF== lines are not CSV
    calls = []  # (launches, ms by kernel)
    for row in csv.DictReader(lines):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        name = short_name(row["Kernel Name"])
        if name.split("::")[-1].startswith(marker):
            calls.append([0, defaultdict(float)])
            continue
        if calls:
            calls[-1][0] += 1
            calls[-1][1][name] += float(row["Metric Value"].replace(",", "")) * SCALE[row["Metric Unit"]]
    calls = calls[skip:]
    if keep is not None:
        calls = calls[:keep]
    if not calls:
        print(f"no call after {skip} skipped (marker {marker!r})", file=sys.stderr)
        return 1
    whole = max(n for n, _ in calls)
    cut = sum(1 for n, _ in calls if n < whole)
    calls = [c for n, c in calls if n == whole]
    if cut:
        print(f"({cut} call(s) with fewer than {whole} launches left out: cut short by the profiler)")
    names = {n for c in calls for n in c}
    mean = {n: sum(c.get(n, 0.0) for c in calls) / len(calls) for n in names}
    total = sum(mean.values())
    print(f"{len(calls)} calls, mean kernel time per call {total:.3f} ms")
    print(f"{'ms a call':>10} {'share':>7}  kernel")
    for n, ms in sorted(mean.items(), key=lambda kv: -kv[1]):
        print(f"{ms:10.3f} {100 * ms / total:6.1f}%  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Time per kernel launch shape from an ncu per-kernel summary.

Reads the text `ncu --metrics gpu__time_duration.sum --print-summary per-kernel` prints (one block
per kernel name and launch shape, with its invocations and min / max / average duration) and prints
average x invocations for each, largest first, with the grid, and the total: where a program's GPU
time goes, kernel by kernel, without Nsight Systems (the lent machines have none). Usage:
  tools/ncu/kernel_sums.py NCU_OUTPUT [ROWS]
"""
import re
import sys

SCALE = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0, "s": 1e3,
         "second": 1e3}


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    rows = []
    for block in re.split(r"\n  (?=\S)", text):
        inv = re.search(r"Invocations (\d+)", block)
        dur = re.search(r"gpu__time_duration\.sum\s+(\w+)\s+([\d.,]+)\s+([\d.,]+)\s+([\d.,]+)", block)
        if not inv or not dur or dur.group(1) not in SCALE:
            continue
        name = re.sub(r"^void ", "", block.split("(")[0].strip())
        grid = re.search(r"\) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\)", block)
        avg = float(dur.group(4).replace(",", "")) * SCALE[dur.group(1)]
        n = int(inv.group(1))
        rows.append((avg * n, n, avg, grid.group(1) if grid else "?", name))
    rows.sort(reverse=True)
    limit = int(sys.argv[2]) if len(sys.argv) == 3 else len(rows)
    print(f"{'ms total':>10} {'launches':>8} {'ms each':>9} {'grid':>8}  kernel")
    for total, n, avg, grid, name in rows[:limit]:
        print(f"{total:10.2f} {n:8d} {avg:9.3f} {grid:>8}  {name[:100]}")
    print(f"{sum(r[0] for r in rows):10.2f} ms in {sum(r[1] for r in rows)} launches")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes docs/perf/h200.json from one device run's logs (scripts/device_run.sh device).

  h200_json.py ENV_TXT OUT_JSON BENCH_LOG... [--command CMD]

Figures (milliseconds unless named otherwise): the NTT forward natural-order median at 2^24 and 2^27
(cuda_ntt_bench with the default tile: rows "ntt nn-oop", natural order in and out of place, as
ntt_fwd_*; rows "ntt nn", in place with a bit-reversal pass, as other.ntt_fwd_*_in_place_ms), the MSM medians with random scalars and the
default window (the first "plain random" row per curve and size in cuda_msm_bench), and the
partition figures the prover benchmark and `proofpipe bench --porep` (whole C2 proofs) print as
"result NAME VALUE" lines. A figure the logs lack
is written as null, never guessed.
"""
import json
import re
import sys

KEYS = ["ntt_fwd_2_24_ms", "ntt_fwd_2_27_ms", "msm_g1_2_24_ms", "msm_g1_2_26_ms", "msm_g2_2_24_ms",
        "partition_2_26_s", "partition_2_27_s", "partition_2_27_vram_gib",
        "porep_c2_proof_s", "porep_c2_partitions_per_hour", "porep_c2_gpu_busy"]


def parse(env_text, bench_text):
    fig = {k: None for k in KEYS}
    extra = {}
    ntt_row = re.compile(r"^2\^(\d+)\s+ntt\s+(nn|nn-oop)\s+(\d+)\s+.*?\s([\d.]+)\s+([\d.]+)\s+(?:[\d.]+|-)\s+(?:[\d.]+|-)\s*$")
    msm_row = re.compile(r"^\|\s*(g1|g2)\s*\|\s*2\^(\d+)\s*\|\s*plain\s*\|\s*random\s*\|\s*(\d+)\s*\|\s*([\d.]+)\s*\|")
    result_row = re.compile(r"^result\s+(\w+)\s+([-+\d.eE]+)\s*$")
    engine_rows = [(re.compile(r"^throughput\s+([\d.]+) proofs/hour, ([\d.]+) partitions/s"),
                    ("engine_proofs_per_hour", "engine_partitions_per_s")),
                   (re.compile(r"^device \S+\s+GPU \(kernel intervals, CUDA events\) busy ([\d.]+)%"),
                    ("engine_gpu_busy_percent",))]
    section = None
    for line in bench_text.splitlines():
        if line.startswith("=== "):
            section = line[4:].strip()
            continue
        m = ntt_row.match(line)
        if m and section == "cuda_ntt_bench":
            key = f"ntt_fwd_2_{m.group(1)}_ms"
            ms = float(m.group(4))
            if m.group(2) == "nn":
                extra.setdefault(f"ntt_fwd_2_{m.group(1)}_in_place_ms", ms)  # first row: the default tile
            elif key in fig and fig[key] is None:
                fig[key] = ms
            continue
        m = msm_row.match(line)
        if m and section == "cuda_msm_bench":
            key = f"msm_{m.group(1)}_2_{m.group(2)}_ms"
            if key in fig and fig[key] is None:  # first row of a size: the default window
                fig[key] = float(m.group(4))
            continue
        if section and section.startswith("proofpipe bench"):
            for rx, names in engine_rows:
                m = rx.match(line)
                if m:
                    extra.update({k: float(v) for k, v in zip(names, m.groups())})
            if line.startswith("workload"):
                extra["engine_workload"] = line.split(None, 1)[1]
        m = result_row.match(line)
        if m:
            (fig if m.group(1) in fig else extra)[m.group(1)] = float(m.group(2))
    env = env_text.splitlines()
    commit = next((l.split()[1] for l in env if l.startswith("commit ")), None)
    gpu = next((l.split(",")[0] for l in env if "H200" in l or "NVIDIA" in l), None)
    date = env[0].strip() if env else None
    return {"date": date, "gpu": gpu, "commit": commit, **fig, "other": extra}


def main(argv):
    command = None
    if "--command" in argv:
        i = argv.index("--command")
        command = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        env_text = f.read()
    bench_text = ""
    for path in argv[3:]:  # later logs add what earlier ones lack
        with open(path) as f:
            bench_text += f.read() + "\n"
    doc = parse(env_text, bench_text)
    doc["command"] = command
    with open(argv[2], "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    missing = [k for k in KEYS if doc[k] is None]
    print(json.dumps(doc, indent=2))
    if missing:
        print("missing: " + ", ".join(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

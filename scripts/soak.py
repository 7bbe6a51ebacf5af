#!/usr/bin/env python3
"""Soak: `proofpipe serve` (CPU backend) under parallel clients for a fixed time, with faults.

Four clients (threads driving the proofpipe CLI: submit / await / cancel) loop until the time is up.
Every job carries its own witness of circom's `mul` circuit (a and b drawn per partition), so its
public signals name it: a proof answered for another job is caught, not just an invalid one. Mixed
in: random cancels, witnesses by path, bad inputs (garbage bytes, an unsatisfied witness, a path
swapped for a FIFO after submit, a missing file), one kill -9 + restart (at 25% of the run) and one
SIGHUP after renaming the log file (at 60%). The daemon's RSS is sampled every 2 s.

Every job must end as: a proof that verifies and carries its own public signals; CANCELLED (after
our cancel); the expected refusal or failure for a bad input; or, across the kill -9, an error that
says the daemon was down or the job was lost (NOT_FOUND). Anything else is a failure: exit 1.

  scripts/soak.py --bin build/release/proofpipe                 # 10 minutes
  scripts/soak.py --bin build/release/proofpipe --duration 60   # the short mode

Unix socket only; every call has a timeout; the daemon is stopped (and killed if need be) at the end.
Figures: docs/perf/soak.md. Not run in CI (too long).
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# BLS12-381 scalar field modulus r.
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
# Job kinds and their weights.
KINDS = {"good": 40, "good_path": 15, "cancel": 20, "garbage": 5, "unsatisfied": 8, "fifo": 6, "missing": 6}
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def wtns_bytes(values):
    """A circom .wtns (version 2) of `values` in standard form, as snarkjs writes it."""
    le = lambda v, n: (v % (1 << (8 * n))).to_bytes(n, "little")
    header = le(32, 4) + R.to_bytes(32, "little") + le(len(values), 4)
    data = b"".join((v % R).to_bytes(32, "little") for v in values)
    return (b"wtns" + le(2, 4) + le(2, 4) + le(1, 4) + le(len(header), 8) + header + le(2, 4) + le(len(data), 8) +
            data)


def mul_witness(a, b):
    """mul.circom: t <== a*b; c <== t*a + 3. Wires 1, c (output), a (public input), b, t."""
    t = a * b % R
    c = (t * a + 3) % R
    return [1, c, a, b, t], [str(c), str(a)]


class daemon:
    """One `proofpipe serve` process at a time; restart() after kill -9 keeps the same socket."""

    def __init__(self, binary, config, socket, stderr_path):
        self.binary, self.config, self.socket, self.stderr_path = binary, config, socket, stderr_path
        self.proc = None
        self.epoch = 0  # bumped by every start: a job submitted in one epoch is lost in the next
        self.down = threading.Event()

    def start(self):
        # A new epoch before the process exists: a client reaching it before start() returns must
        # already count jobs of the old epoch as lost.
        self.epoch += 1
        err = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen([self.binary, "serve", "--config", self.config, "--socket", self.socket],
                                     stdout=subprocess.DEVNULL, stderr=err)
        err.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            r = subprocess.run([self.binary, "status", "--socket", self.socket], capture_output=True, timeout=10)
            if r.returncode == 0:
                self.down.clear()
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise SystemExit("soak: proofpipe serve did not come up; see " + self.stderr_path)

    def rss_kib_and_threads(self):
        """(VmRSS in KiB, thread count) of the daemon, or None when it is not there."""
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            return int(fields["VmRSS"].split()[0]), int(fields["Threads"])
        except (OSError, KeyError, ValueError):
            return None


class tally:
    def __init__(self):
        self.t0 = time.monotonic()
        self.mu = threading.Lock()
        self.counts = {}
        self.failures = []  # (what, detail)

    def add(self, outcome, failure=None):
        with self.mu:
            self.counts[outcome] = self.counts.get(outcome, 0) + 1
            if failure:
                self.failures.append((outcome, "%.1f s: %s" % (time.monotonic() - self.t0, failure)))


def cli(binary, args, timeout):
    try:
        r = subprocess.run([binary] + args + ["--quiet"], capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout.strip(), r.stderr.strip()
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def daemon_down_text(err):
    """gRPC's words for a daemon that is not there (the CLI prints messages without their code)."""
    e = err.lower()
    return any(w in e for w in ("failed to connect", "connection refused", "socket closed", "connection reset",
                                "no such file or directory", "connections to all backends failing"))


class client(threading.Thread):
    def __init__(self, n, ctx):
        super().__init__(name="client-%d" % n)
        self.n, self.ctx = n, ctx
        self.rng = random.Random(ctx.seed * 1000 + n)
        self.seq = 0

    def run(self):
        while time.monotonic() < self.ctx.end:
            self.one_job()

    def tmp(self, name):
        return os.path.join(self.ctx.dir, "c%d-%d-%s" % (self.n, self.seq, name))

    def one_job(self):
        c = self.ctx
        self.seq += 1
        kinds = [k for k in KINDS if k in c.kinds]
        kind = self.rng.choices(kinds, weights=[KINDS[k] for k in kinds])[0]
        # Cancelled jobs are big enough (mul proves in ~2 ms) that the cancel often lands mid-job.
        parts = (self.rng.randint(16, 64) if kind == "cancel" else
                 self.rng.choice([1, 1, 1, 2, 3]) if kind in ("good", "good_path") else 1)
        expected = []
        files = []
        for p in range(parts):
            a = self.rng.randrange(1, R)
            b = self.rng.randrange(1, R)
            values, public = mul_witness(a, b)
            if kind == "unsatisfied":
                values[1] = (values[1] + 1) % R
            path = self.tmp("w%d.wtns" % p)
            with open(path, "wb") as f:
                f.write(b"not a witness" if kind == "garbage" else wtns_bytes(values))
            files.append(path)
            expected.append(public)
        if kind == "missing":
            os.unlink(files[0])
        sock = ["--socket", c.daemon.socket]
        by_path = kind in ("good_path", "fifo", "missing")
        epoch = c.daemon.epoch
        # A FIFO in place of the witness: before submit (refused there) or just after (the witness
        # stage must refuse it, not block on it; when it read the file first, the proof must verify).
        fifo_when = self.rng.choice(["before", "after"]) if kind == "fifo" else None
        if fifo_when == "before":
            self.swap_in_fifo(files[0])
        rc, out, err = cli(c.binary, ["submit"] + sock + [c.zkey] + files + (["--by-path"] if by_path else []) +
                           ["--priority", self.rng.choice(["low", "normal", "high"])], 60)
        if fifo_when == "after" and rc == 0:
            self.swap_in_fifo(files[0])
        if rc != 0:
            if (kind in ("garbage", "missing") or fifo_when == "before") and not daemon_down_text(err):
                c.tally.add("refused_at_submit (bad input)")
            elif daemon_down_text(err) and (c.daemon.down.is_set() or c.daemon.epoch != epoch):
                c.tally.add("daemon_down_at_submit")
            else:
                c.tally.add("UNEXPECTED", "%s submit rc=%d: %s" % (kind, rc, err))
            return self.cleanup(files)
        job = out.split()[-1]
        if kind == "garbage" or fifo_when == "before":
            c.tally.add("UNEXPECTED", "%s witness accepted as job %s" % (kind, job))
        if kind == "cancel":
            time.sleep(self.rng.uniform(0, 0.05))
            cli(c.binary, ["cancel"] + sock + [job], 30)
        proof, public = self.tmp("proof.json"), self.tmp("public.json")
        deadline = time.monotonic() + 120
        while True:
            rc, out, err = cli(c.binary, ["await"] + sock + [job, proof, public, "--timeout", "60"], 90)
            if rc != 0 and daemon_down_text(err) and time.monotonic() < deadline:
                time.sleep(0.5)  # the daemon is being restarted: ask again
                continue
            break
        if rc == 0:
            if kind in ("good", "good_path", "cancel"):
                self.check_proofs(job, proof, public, expected)
            elif kind == "fifo":
                self.check_proofs(job, proof, public, expected, "fifo_read_before_the_swap (verified)")
            else:
                c.tally.add("UNEXPECTED", "%s job %s succeeded" % (kind, job))
        elif "unknown to this daemon" in err and c.daemon.epoch != epoch:
            c.tally.add("lost_in_restart (NOT_FOUND)")
        elif kind == "cancel" and "was cancelled" in err:
            c.tally.add("cancelled")
        elif kind == "unsatisfied" and ("job %s failed" % job) in err:
            c.tally.add("failed_as_expected (unsatisfied witness)")
        elif kind == "fifo" and "is a FIFO, not a regular file" in err:
            c.tally.add("failed_as_expected (FIFO witness)")
        elif "engine shut down before it finished" in err and c.daemon.epoch != epoch:
            c.tally.add("lost_in_restart (ended by shutdown)")
        else:
            c.tally.add("UNEXPECTED", "%s job %s await rc=%d: %s" % (kind, job, rc, err))
        self.cleanup(files + [proof, public] + [self.nth(proof, i) for i in range(1, parts)] +
                     [self.nth(public, i) for i in range(1, parts)])

    @staticmethod
    def nth(path, i):
        stem, ext = os.path.splitext(path)
        return "%s.%d%s" % (stem, i, ext)

    @staticmethod
    def swap_in_fifo(path):
        fifo = path + ".fifo"
        os.mkfifo(fifo)
        os.replace(fifo, path)

    def check_proofs(self, job, proof, public, expected, outcome="succeeded_and_verified"):
        c = self.ctx
        for i, want in enumerate(expected):
            pf, pub = self.nth(proof, i) if i else proof, self.nth(public, i) if i else public
            try:
                with open(pub) as f:
                    got = json.load(f)
            except (OSError, ValueError) as e:
                c.tally.add("UNEXPECTED", "job %s partition %d: public.json: %s" % (job, i, e))
                return
            if got != want:
                c.tally.add("WRONG_PROOF", "job %s partition %d: public %s, expected %s" % (job, i, got, want))
                return
            rc, out, err = cli(c.binary, ["verify", c.vk, pub, pf], 30)
            if rc != 0:
                c.tally.add("UNEXPECTED", "job %s partition %d does not verify: %s %s" % (job, i, out, err))
                return
        c.tally.add(outcome)

    def cleanup(self, paths):
        for p in paths:
            try:
                os.unlink(p)
            except OSError:
                pass


def slope_mib_per_min(samples):
    """Least-squares slope of (t s, rss KiB) samples, in MiB per minute."""
    n = len(samples)
    if n < 2:
        return 0.0
    mt = sum(t for t, _ in samples) / n
    mr = sum(r for _, r in samples) / n
    num = sum((t - mt) * (r - mr) for t, r in samples)
    den = sum((t - mt) ** 2 for t, _ in samples)
    return (num / den) * 60 / 1024 if den else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/release/proofpipe"), help="the proofpipe binary")
    ap.add_argument("--duration", type=float, default=600, help="seconds of load (60: the short mode)")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--warmup", type=float, default=None, help="seconds after the restart not judged for RSS")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--kinds", default=",".join(KINDS), help="job kinds to draw from (default: all)")
    ap.add_argument("--no-faults", action="store_true", help="no kill -9 and no SIGHUP (to study RSS alone)")
    ap.add_argument("--retained", type=int, default=200,
                    help="the daemon's max_retained_jobs: small enough to fill during the warm-up")
    ap.add_argument("--json", default=None, help="write the summary here too")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    warmup = args.warmup if args.warmup is not None else min(60.0, args.duration / 6)
    binary = os.path.abspath(args.bin)
    work = tempfile.mkdtemp(prefix="pp_soak_")
    print("soak: %s, %d clients, %.0f s, seed %d, in %s" % (binary, args.clients, args.duration, seed, work),
          flush=True)

    class ctx:
        pass

    ctx.binary, ctx.dir, ctx.seed = binary, work, seed
    ctx.kinds = set(args.kinds.split(","))
    ctx.tally = tally()
    ctx.zkey, ctx.vk = os.path.join(work, "mul.zkey"), os.path.join(work, "vk.json")
    r = subprocess.run([binary, "setup", os.path.join(ROOT, "tests/fixtures/circom/mul.r1cs"), ctx.zkey, "--vk", ctx.vk,
                        "--quiet"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise SystemExit("soak: setup failed: " + r.stderr)
    with open(os.path.join(ROOT, "tests/fixtures/circom/mul.wtns"), "rb") as f:
        if f.read() != wtns_bytes(mul_witness(3, 11)[0]):
            raise SystemExit("soak: this script's .wtns writer does not reproduce tests/fixtures/circom/mul.wtns")
    log = os.path.join(work, "serve.log")
    config = os.path.join(work, "soak.toml")
    with open(config, "w") as f:
        # Retention and the trace ring are bounded small so that they fill during the warm-up: what
        # grows after it is a leak, not the daemon remembering finished jobs.
        f.write('[server]\ndrain_timeout_s = 60\nmax_await_s = 120\n[log]\nlevel = "info"\nfile = "%s"\n'
                '[engine]\nbackend = "cpu"\nhost_memory_mb = 2048\nhost_memory_margin_mb = 0\n'
                'max_retained_jobs = %d\ntrace_capacity = 256\n' % (log, args.retained))
    d = daemon(binary, config, os.path.join(work, "soak.sock"), os.path.join(work, "serve.stderr"))
    ctx.daemon = d
    d.start()
    t0 = time.monotonic()
    ctx.end = t0 + args.duration
    clients = [client(i, ctx) for i in range(args.clients)]
    for c in clients:
        c.start()

    rss = []  # (seconds since start, KiB, epoch, threads)
    events = []
    kill_at, hup_at = t0 + 0.25 * args.duration, t0 + 0.60 * args.duration
    killed = hupped = args.no_faults
    restart_t = 0.0 if args.no_faults else None
    while time.monotonic() < ctx.end:
        now = time.monotonic()
        if not killed and now >= kill_at:
            d.down.set()
            d.proc.send_signal(signal.SIGKILL)
            d.proc.wait(timeout=30)
            events.append("%.0f s: kill -9 (pid %d)" % (now - t0, d.proc.pid))
            time.sleep(1)
            d.start()
            restart_t = time.monotonic() - t0
            events.append("%.0f s: restarted (pid %d), epoch %d" % (restart_t, d.proc.pid, d.epoch))
            killed = True
        elif not hupped and now >= hup_at:
            os.replace(log, log + ".1")
            d.proc.send_signal(signal.SIGHUP)
            reopened = False
            for _ in range(50):
                time.sleep(0.1)
                if os.path.exists(log) and "SIGHUP" in open(log).read():
                    reopened = True
                    break
            alive = d.proc.poll() is None
            events.append("%.0f s: SIGHUP after renaming the log: daemon %s, log %s" %
                          (now - t0, "alive" if alive else "DEAD (rc %s)" % d.proc.returncode,
                           "reopened" if reopened else "NOT reopened"))
            if not (alive and reopened):
                ctx.tally.add("UNEXPECTED", events[-1])
                if not alive:
                    d.start()
            hupped = True
        sample = d.rss_kib_and_threads()
        if sample is not None:
            rss.append((now - t0, sample[0], d.epoch, sample[1]))
        time.sleep(2)

    for c in clients:
        c.join(timeout=300)
    stuck = [c.name for c in clients if c.is_alive()]
    d.proc.send_signal(signal.SIGTERM)
    try:
        rc = d.proc.wait(timeout=90)
    except subprocess.TimeoutExpired:
        d.proc.kill()
        rc = "killed after 90 s"
    events.append("end: SIGTERM, exit %s, socket %s" % (rc, "left behind" if os.path.exists(d.socket) else "removed"))
    if rc != 0 or os.path.exists(d.socket):
        ctx.tally.add("UNEXPECTED", events[-1])
    if stuck:
        ctx.tally.add("UNEXPECTED", "clients still running after the end: %s" % stuck)

    judged = [(t, k, n) for t, k, e, n in rss if e == d.epoch and restart_t is not None and t >= restart_t + warmup]
    last = [(t, k) for t, k, _ in judged]
    summary = {
        "seed": seed, "duration_s": args.duration, "clients": args.clients,
        "jobs": sum(ctx.tally.counts.values()), "outcomes": dict(sorted(ctx.tally.counts.items())),
        "events": events,
        "rss_mib": {
            "process": "after the restart, from %.0f s (warm-up %.0f s) to the end" %
                       ((restart_t or 0) + warmup, warmup),
            "samples": len(last),
            "first": round(last[0][1] / 1024, 1) if last else None,
            "min": round(min(k for _, k in last) / 1024, 1) if last else None,
            "max": round(max(k for _, k in last) / 1024, 1) if last else None,
            "last": round(last[-1][1] / 1024, 1) if last else None,
            "slope_mib_per_min": round(slope_mib_per_min(last), 3),
            "slope_second_half_mib_per_min": round(slope_mib_per_min(last[len(last) // 2:]), 3),
            "before_kill_max": round(max((k for _, k, e, _ in rss if e == 1), default=0) / 1024, 1),
            "threads_min_max": [min((n for _, _, n in judged), default=0), max((n for _, _, n in judged), default=0)],
            "samples_s_mib": [[round(t), round(k / 1024, 2)] for t, k in last],
        },
        "failures": ctx.tally.failures[:50],
    }
    # The RSS samples go to --json only; on stdout they would bury the rest.
    shown = dict(summary, rss_mib={k: v for k, v in summary["rss_mib"].items() if k != "samples_s_mib"})
    print(json.dumps(shown, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(summary, indent=1) + "\n")
    bad = ctx.tally.counts.get("UNEXPECTED", 0) + ctx.tally.counts.get("WRONG_PROOF", 0)
    if bad == 0:
        shutil.rmtree(work, ignore_errors=True)
        print("soak: PASS")
        return 0
    print("soak: FAIL (%d unexpected outcomes; files kept in %s)" % (bad, work))
    return 1


if __name__ == "__main__":
    sys.exit(main())

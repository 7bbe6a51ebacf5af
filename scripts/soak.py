#!/usr/bin/env python3
"""Soak: `proofpipe serve` (CPU backend) under parallel clients for a fixed time, with faults.

Four clients (threads driving the proofpipe CLI: submit / await / cancel) loop until the time is up.
Every job carries its own witness of circom's `mul` circuit (a and b drawn per partition), so its
public signals name it: a proof answered for another job is caught, not just an invalid one. Mixed
in: random cancels, witnesses by path, bad inputs (garbage bytes, an unsatisfied witness, a path
swapped for a FIFO after submit, a missing file), one kill -9 + restart (at 25% of the run), one
SIGHUP after renaming the log file (at 60%) and an idle-connection flood (at 75%: 1100 silent TCP
connections each to the HTTP and the gRPC TCP port, held 30 s). Every daemon serves its unix socket,
gRPC on TCP (bearer token) and HTTP, under a file descriptor limit of 1024, as a default login shell
gives. A prober GETs /metrics on every live daemon every 2 s; RSS is sampled every 2 s.

--cluster: three nodes sharing a throwaway PostgreSQL (its binaries under /usr/lib/postgresql),
clients submitting to one node and awaiting through another; the kill -9 hits one node, PostgreSQL
is restarted (pg_ctl restart -m fast) at 45%, the SIGHUP goes to every node, the flood to node-a.

Every job must end as: a proof that verifies and carries its own public signals; CANCELLED (after
our cancel); the expected refusal or failure for a bad input; or, across the kill -9 of the single
daemon, an error that says it was down or the job was lost (NOT_FOUND). In cluster mode no job may
be lost, and an error naming the database is accepted only from the PostgreSQL restart until 10 s
after it. /metrics must answer within 5 s on every node that is up, the flood included, and gRPC
over TCP must accept calls during and after the flood. Anything else is a failure: exit 1.

  scripts/soak.py --bin build/release/proofpipe                           # 10 minutes, one daemon
  scripts/soak.py --bin build/release/proofpipe --duration 60             # the short mode
  scripts/soak.py --bin build/release/proofpipe --cluster --duration 1200 # 3 nodes + PostgreSQL

Every call has a timeout; the daemons and PostgreSQL are stopped (killed if need be) at the end.
Figures: docs/perf/soak.md. Not run in CI (too long).
"""
import argparse
import errno
import glob
import http.client
import json
import os
import pwd
import random
import resource
import secrets
import selectors
import shutil
import signal
import socket
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
# The descriptor limit the daemons run under: a login shell's default, where running out of
# descriptors once left the gRPC TCP port dead while /status said healthy.
DAEMON_NOFILE = 1024
METRICS_LIMIT_S = 5.0
# Errors that name the database are accepted this long after `pg_ctl restart` returned: the nodes
# reconnect by themselves, within a poll or two.
PG_GRACE_S = 10.0


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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_metrics(port, timeout=15):
    """GET /metrics on a fresh connection: (ok, seconds, detail)."""
    t = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request("GET", "/metrics")
        r = c.getresponse()
        body = r.read()
        c.close()
        ok = r.status == 200 and b"pp_" in body
        return ok, time.monotonic() - t, "HTTP %d, %d bytes" % (r.status, len(body))
    except (OSError, http.client.HTTPException) as e:
        return False, time.monotonic() - t, "%s: %s" % (type(e).__name__, e)


def limit_fds():
    # Hard as well as soft: the daemon raises its soft limit to the hard one at start.
    resource.setrlimit(resource.RLIMIT_NOFILE, (DAEMON_NOFILE, DAEMON_NOFILE))


class node:
    """One `proofpipe serve`: unix socket, gRPC on TCP with a token, HTTP. restart() after kill -9
    keeps the same socket and ports."""

    def __init__(self, name, binary, work):
        self.name, self.binary = name, binary
        self.config = os.path.join(work, name + ".toml")
        self.socket = os.path.join(work, name + ".sock")
        self.log = os.path.join(work, name + ".log")
        self.stderr_path = os.path.join(work, name + ".stderr")
        self.token_file = os.path.join(work, name + ".token")
        self.http_port, self.listen_port = free_port(), free_port()
        with os.fdopen(os.open(self.token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(secrets.token_hex(32) + "\n")
        self.proc = None
        self.epoch = 0  # bumped by every start: a job submitted in one epoch is lost in the next
        self.down = threading.Event()  # set from the kill until the restarted daemon answers
        self.nofile = None
        self.max_fds = 0

    def write_config(self, retained, cluster=None):
        with open(self.config, "w") as f:
            # Retention and the trace ring are bounded small so that they fill during the warm-up: what
            # grows after it is a leak, not the daemon remembering finished jobs.
            f.write('[server]\nsocket = "%s"\nlisten = "127.0.0.1:%d"\ntoken_file = "%s"\nhttp = "127.0.0.1:%d"\n'
                    'drain_timeout_s = 60\nmax_await_s = 120\n[log]\nlevel = "info"\nfile = "%s"\n'
                    '[engine]\nbackend = "cpu"\nhost_memory_mb = 2048\nhost_memory_margin_mb = 0\n'
                    'max_retained_jobs = %d\ntrace_capacity = 256\n' %
                    (self.socket, self.listen_port, self.token_file, self.http_port, self.log, retained))
            if cluster:
                f.write('[cluster]\ndatabase = "%s"\nnode = "%s"\nlease_s = 3\npoll_ms = 50\nshared_dir = "%s"\n'
                        'inline_witness_bytes = %d\n[[keys]]\nid = "mul"\nzkey = "%s"\npreload = true\n' %
                        (cluster["database"], self.name, cluster["shared_dir"], cluster["inline_bytes"],
                         cluster["zkey"]))

    def tcp(self):
        return ["--connect", "127.0.0.1:%d" % self.listen_port, "--token-file", self.token_file]

    def start(self):
        # A new epoch before the process exists: a client reaching it before start() returns must
        # already count jobs of the old epoch as lost.
        self.epoch += 1
        err = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen([self.binary, "serve", "--config", self.config], stdout=subprocess.DEVNULL,
                                     stderr=err, preexec_fn=limit_fds)
        err.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r = subprocess.run([self.binary, "status", "--socket", self.socket], capture_output=True, timeout=10)
            # Up means every listener answers: the prober judges /metrics as soon as `down` clears.
            if r.returncode == 0 and get_metrics(self.http_port, 5)[0]:
                self.nofile = self.fd_limit()
                self.down.clear()
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise SystemExit("soak: %s did not come up; see %s" % (self.name, self.stderr_path))

    def kill9(self):
        self.down.set()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def fd_limit(self):
        """The daemon's soft RLIMIT_NOFILE as it runs (it raises the soft limit to the hard one)."""
        with open("/proc/%d/limits" % self.proc.pid) as f:
            return next(int(line.split()[3]) for line in f if line.startswith("Max open files"))

    def sample(self):
        """(VmRSS in KiB, thread count, open descriptors) of the daemon, or None when it is not there."""
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            fds = len(os.listdir("/proc/%d/fd" % self.proc.pid))
            return int(fields["VmRSS"].split()[0]), int(fields["Threads"]), fds
        except (OSError, KeyError, ValueError):
            return None


class postgres:
    """A throwaway PostgreSQL listening only on a unix socket in its own folder, as
    tests/cluster/pg_instance.hpp starts it: under root, as the `postgres` user."""

    def __init__(self):
        bins = sorted(b for b in glob.glob("/usr/lib/postgresql/*/bin")
                      if os.path.exists(os.path.join(b, "pg_ctl")) and os.path.exists(os.path.join(b, "initdb")))
        if not bins:
            raise SystemExit("soak: --cluster needs PostgreSQL (initdb, pg_ctl under /usr/lib/postgresql/*/bin)")
        self.bin = max(bins, key=lambda b: int(b.split("/")[-2]) if b.split("/")[-2].isdigit() else 0)
        self.dir = tempfile.mkdtemp(prefix="pp_soak_pg_")
        self.as_ = []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")  # initdb and postgres refuse to run as root
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.as_, self.user = ["runuser", "-u", "postgres", "--"], "postgres"
        else:
            self.user = pwd.getpwuid(os.geteuid()).pw_name
        os.chmod(self.dir, 0o755)
        self.running = False
        with open(os.path.join(self.dir, "initdb.log"), "w") as log:
            r = subprocess.run(self.as_ + [os.path.join(self.bin, "initdb"), "-D", self.data(), "-A", "trust",
                                           "-U", self.user, "-E", "UTF8", "--no-sync"],
                               stdout=log, stderr=subprocess.STDOUT, timeout=300)
        if r.returncode != 0:
            raise SystemExit("soak: initdb failed; see %s/initdb.log" % self.dir)
        if not self.pg_ctl("start"):
            raise SystemExit("soak: pg_ctl start failed; see %s/server.log" % self.dir)
        self.running = True

    def data(self):
        return os.path.join(self.dir, "data")

    def pg_ctl(self, *action):
        opts = ("-k %s -c listen_addresses='' -p 5432 -c fsync=off -c synchronous_commit=off "
                "-c full_page_writes=off -c max_connections=200" % self.dir)
        with open(os.path.join(self.dir, "pg_ctl.log"), "a") as log:
            r = subprocess.run(self.as_ + [os.path.join(self.bin, "pg_ctl"), "-D", self.data(), "-l",
                                           os.path.join(self.dir, "server.log"), "-w", "-o", opts] + list(action),
                               stdout=log, stderr=subprocess.STDOUT, timeout=120)
        return r.returncode == 0

    def conninfo(self, db="postgres"):
        return "host=%s port=5432 user=%s dbname=%s" % (self.dir, self.user, db)

    def sql(self, db, query):
        r = subprocess.run(["psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", self.conninfo(db), "-c", query],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise RuntimeError("psql: " + r.stderr.strip())
        return r.stdout.strip()

    def stop(self):
        if self.running:
            self.pg_ctl("stop", "-m", "fast")
            self.running = False


class tally:
    def __init__(self):
        self.t0 = time.monotonic()
        self.mu = threading.Lock()
        self.counts = {}
        self.retries = {}  # calls repeated on another node or after a restart: not outcomes
        self.failures = []  # (what, detail)
        self.examples = {}  # outcome: the first error texts it was given for

    def add(self, outcome, failure=None, example=None):
        with self.mu:
            self.counts[outcome] = self.counts.get(outcome, 0) + 1
            if example and len(self.examples.setdefault(outcome, [])) < 2:
                self.examples[outcome].append(example[:300])
            if failure:
                self.failures.append((outcome, "%.1f s: %s" % (time.monotonic() - self.t0, failure)))

    def retry(self, what, example=None):
        with self.mu:
            self.retries[what] = self.retries.get(what, 0) + 1
            if example and len(self.examples.setdefault(what, [])) < 2:
                self.examples[what].append(example[:300])


def cli(binary, args, timeout):
    try:
        r = subprocess.run([binary] + args + ["--quiet"], capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout.strip(), r.stderr.strip()
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def database_down_text(err):
    """A cluster node's words for a database it cannot reach (src/cluster/db_session.cpp): a lost or
    refused connection; a commit cut off midway (libpqxx's in_doubt_error); PostgreSQL's own codes for
    a server shutting down or starting (57P01 admin_shutdown, 57P03 cannot_connect_now)."""
    return any(w in err for w in ("database: connection lost or refused (",
                                  "database: the connection was lost while a transaction committed",
                                  "database: SQLSTATE 57P01", "database: SQLSTATE 57P03"))


def daemon_down_text(err):
    """gRPC's words for a daemon that is not there (the CLI prints messages without their code)."""
    if database_down_text(err):  # libpq's words for PostgreSQL's socket are much the same
        return False
    e = err.lower()
    return any(w in e for w in ("failed to connect", "connection refused", "socket closed", "connection reset",
                                "no such file or directory", "connections to all backends failing"))


def refusal_text(kind, fifo_when, path, err):
    """The outcome of a bad input refused at submit with its own words; None for any other error.
    A single daemon checks a path at submit and reads it later; a cluster node reads it at submit."""
    if kind == "garbage" and "not a .wtns file" in err:
        return "refused_at_submit (garbage bytes)"
    if kind == "missing" and ("witness file %s does not exist" % path) in err:
        return "refused_at_submit (missing file)"
    if kind == "fifo" and fifo_when == "before" and any(
            ("witness file %s is a FIFO%s" % (path, w)) in err for w in ("; expected a regular", ", not a regular")):
        return "refused_at_submit (FIFO witness)"
    return None


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

    def pick(self, avoid=()):
        """A node to talk to: in cluster mode a random one that is up, other than `avoid` if it can."""
        nodes = self.ctx.nodes
        up = [n for n in nodes if not n.down.is_set() and n not in avoid]
        return self.rng.choice(up or [n for n in nodes if n not in avoid] or nodes)

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
        by_path = kind in ("good_path", "fifo", "missing")
        key = ["--key-id", "mul", c.zkey] if c.cluster else [c.zkey]
        # A FIFO in place of the witness: before submit (refused there) or just after (a single
        # daemon's witness stage must refuse it, not block on it; when it read the file first, as a
        # cluster node always does at submit, the proof must verify).
        fifo_when = self.rng.choice(["before", "after"]) if kind == "fifo" else None
        if fifo_when == "before":
            self.swap_in_fifo(files[0])
        tried = []
        while True:
            n = self.pick(tried)
            tried.append(n)
            epoch, t_call = n.epoch, time.monotonic()
            rc, out, err = cli(c.binary, ["submit", "--socket", n.socket] + key + files +
                               (["--by-path"] if by_path else []) +
                               ["--priority", self.rng.choice(["low", "normal", "high"])], 60)
            was_down = daemon_down_text(err) and (n.down.is_set() or n.epoch != epoch)
            if rc != 0 and c.cluster and was_down and len(tried) < len(c.nodes):
                c.tally.retry("submit on another node (this one down)", err)
                continue
            break
        if fifo_when == "after" and rc == 0:
            self.swap_in_fifo(files[0])
        if rc != 0:
            refused = refusal_text(kind, fifo_when, files[0], err)
            if refused:
                c.tally.add(refused, example=err)
            elif was_down and not c.cluster:
                c.tally.add("daemon_down_at_submit", example=err)
            elif c.cluster and database_down_text(err) and c.in_pg_window(t_call, time.monotonic()):
                c.tally.add("database_down_at_submit (PostgreSQL restart)", example=err)
            else:
                c.tally.add("UNEXPECTED", "%s submit to %s rc=%d: %s" % (kind, n.name, rc, err))
            return self.cleanup(files)
        job = out.split()[-1]
        submitted_to = n
        if kind == "garbage" or fifo_when == "before":
            c.tally.add("UNEXPECTED", "%s witness accepted as job %s" % (kind, job))
        if kind == "cancel":
            time.sleep(self.rng.uniform(0, 0.05))
            cli(c.binary, ["cancel", "--socket", self.pick().socket, job], 30)
        proof, public = self.tmp("proof.json"), self.tmp("public.json")
        deadline = time.monotonic() + 180
        n = submitted_to if not c.cluster else self.pick()
        while True:
            t_call, e_call = time.monotonic(), n.epoch
            rc, out, err = cli(c.binary, ["await", "--socket", n.socket, job, proof, public, "--timeout", "60"], 90)
            if rc != 0 and time.monotonic() < deadline:
                if daemon_down_text(err) and (n.down.is_set() or n.epoch != e_call):
                    # Down or being restarted: ask again (in cluster mode another node).
                    c.tally.retry("await again (node down)", err)
                    time.sleep(0.5)
                    n = self.pick([n]) if c.cluster else n
                    continue
                if c.cluster and database_down_text(err) and c.in_pg_window(t_call, time.monotonic()):
                    c.tally.retry("await again (PostgreSQL restart)", err)
                    time.sleep(0.5)
                    continue
            break
        if rc == 0:
            if kind in ("good", "good_path", "cancel"):
                self.check_proofs(job, proof, public, expected)
            elif kind == "fifo":
                self.check_proofs(job, proof, public, expected, "fifo_read_before_the_swap (verified)")
            else:
                c.tally.add("UNEXPECTED", "%s job %s succeeded" % (kind, job))
        elif not c.cluster and "unknown to this daemon" in err and n.epoch != epoch:
            c.tally.add("lost_in_restart (NOT_FOUND)", example=err)
        elif kind == "cancel" and "was cancelled" in err:
            c.tally.add("cancelled", example=err)
        elif kind == "unsatisfied" and ("job %s failed" % job) in err and "does not satisfy" in err:
            c.tally.add("failed_as_expected (unsatisfied witness)", example=err)
        elif not c.cluster and kind == "fifo" and "is a FIFO, not a regular file" in err:
            c.tally.add("failed_as_expected (FIFO witness)", example=err)
        elif not c.cluster and "engine shut down before it finished" in err and n.epoch != epoch:
            c.tally.add("lost_in_restart (ended by shutdown)", example=err)
        else:
            c.tally.add("UNEXPECTED", "%s job %s await via %s rc=%d: %s" % (kind, job, n.name, rc, err))
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


class prober(threading.Thread):
    """GET /metrics on every node that is up, every 2 s. A failure or an answer slower than 5 s
    counts only when the node was up from before the request until after it."""

    def __init__(self, ctx):
        super().__init__(name="prober")
        self.ctx = ctx
        self.stop = threading.Event()
        self.stats = {n.name: {"probes": 0, "max_s": 0.0, "failed_or_slow": 0, "not_judged_node_down": 0}
                      for n in ctx.nodes}

    def run(self):
        while not self.stop.is_set():
            for n in self.ctx.nodes:
                if n.down.is_set():
                    continue
                epoch = n.epoch
                ok, secs, detail = get_metrics(n.http_port)
                s = self.stats[n.name]
                if n.down.is_set() or n.epoch != epoch:
                    s["not_judged_node_down"] += 1
                    continue
                s["probes"] += 1
                s["max_s"] = max(s["max_s"], secs)
                if not ok or secs > METRICS_LIMIT_S:
                    s["failed_or_slow"] += 1
                    self.ctx.tally.add("UNEXPECTED", "/metrics on %s: %.2f s, %s" % (n.name, secs, detail))
            self.stop.wait(2)


def connect_many(port, count, wait_s=10):
    """`count` TCP connections to 127.0.0.1:port that send nothing: (open sockets, {result: count})."""
    sel = selectors.DefaultSelector()
    results = {}
    pending = 0
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        e = s.connect_ex(("127.0.0.1", port))
        if e in (0, errno.EINPROGRESS):
            sel.register(s, selectors.EVENT_WRITE)
            pending += 1
        else:
            results[errno.errorcode.get(e, str(e))] = results.get(errno.errorcode.get(e, str(e)), 0) + 1
            s.close()
    held = []
    deadline = time.monotonic() + wait_s
    while pending and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=max(0.0, deadline - time.monotonic())):
            s = key.fileobj
            sel.unregister(s)
            pending -= 1
            e = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            what = "connected" if e == 0 else errno.errorcode.get(e, str(e))
            results[what] = results.get(what, 0) + 1
            if e == 0:
                held.append(s)
            else:
                s.close()
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    if pending:
        results["no_answer_in_%d_s" % wait_s] = pending
    sel.close()
    return held, results


def closed_by_peer(sockets):
    """How many of `sockets` the other end has closed (FIN or RST seen)."""
    closed = 0
    for s in sockets:
        try:
            # Read past what the daemon sent first (gRPC's SETTINGS frame) to the end, if it came.
            while True:
                if s.recv(4096, socket.MSG_DONTWAIT) == b"":
                    closed += 1
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return closed


class flood(threading.Thread):
    """1100 silent connections each to the HTTP and the gRPC TCP port of one node, held 30 s (past
    the 5 s HTTP idle and 10 s gRPC authentication deadlines). Meanwhile /metrics must answer within
    5 s and an authenticated gRPC call over TCP must get through; afterwards gRPC over TCP and the
    unix socket must answer."""

    def __init__(self, ctx, n, count=1100, hold_s=30):
        super().__init__(name="flood")
        self.ctx, self.n, self.count, self.hold_s = ctx, n, count, hold_s
        self.summary = {"node": n.name, "connections_each": count, "hold_s": hold_s}

    def grpc_status(self, over):
        t = time.monotonic()
        rc, _, err = cli(self.ctx.binary, ["status"] + (self.n.tcp() if over == "tcp" else ["--socket", self.n.socket]),
                         15)
        return {"at_s": round(t - self.ctx.t0, 1), "ok": rc == 0, "s": round(time.monotonic() - t, 2),
                "error": err[:200] if rc else ""}

    def run(self):
        c, n, s = self.ctx, self.n, self.summary
        t0 = time.monotonic()
        s["at_s"] = round(t0 - c.t0, 1)
        http_socks, s["http_connect"] = connect_many(n.http_port, self.count)
        grpc_socks, s["grpc_connect"] = connect_many(n.listen_port, self.count)
        s["connect_s"] = round(time.monotonic() - t0, 1)
        sample = n.sample()
        s["daemon_open_fds_after_connect"] = sample[2] if sample else None
        n.max_fds = max(n.max_fds, sample[2] if sample else 0)
        metrics, calls = [], []
        while time.monotonic() < t0 + self.hold_s:
            ok, secs, detail = get_metrics(n.http_port)
            metrics.append(round(secs, 3))
            if not ok or secs > METRICS_LIMIT_S:
                c.tally.add("UNEXPECTED", "flood: /metrics on %s: %.2f s, %s" % (n.name, secs, detail))
            calls.append(self.grpc_status("tcp"))
            time.sleep(2)
        s["http_closed_by_daemon"] = closed_by_peer(http_socks)
        s["grpc_closed_by_daemon"] = closed_by_peer(grpc_socks)
        for sock in http_socks + grpc_socks:
            sock.close()
        s["metrics_during_s"] = {"probes": len(metrics), "max": max(metrics, default=None), "all": metrics}
        s["grpc_tcp_during"] = {"calls": len(calls), "ok": sum(x["ok"] for x in calls),
                                "failed": [x for x in calls if not x["ok"]]}
        s["grpc_tcp_after"] = self.grpc_status("tcp")
        s["grpc_unix_after"] = self.grpc_status("unix")
        s["ended_s"] = round(time.monotonic() - c.t0, 1)
        if not s["grpc_tcp_during"]["ok"]:
            c.tally.add("UNEXPECTED", "flood: no gRPC call over TCP got through on %s: %s" % (n.name, calls))
        # Held past both idle deadlines: the daemon must have closed every one.
        for port, held in (("http", http_socks), ("grpc", grpc_socks)):
            if s[port + "_closed_by_daemon"] < len(held):
                c.tally.add("UNEXPECTED", "flood: %d of %d idle %s connections still open after %d s on %s" %
                            (len(held) - s[port + "_closed_by_daemon"], len(held), port, self.hold_s, n.name))
        for what in ("grpc_tcp_after", "grpc_unix_after"):
            if not s[what]["ok"]:
                c.tally.add("UNEXPECTED", "flood: %s on %s: %s" % (what, n.name, s[what]))


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


def rss_around(samples, flooder):
    """First, last and slope of (t s, KiB) samples before the flood and after it, in MiB."""
    if flooder is None:
        return None
    parts = {"before": [(t, k) for t, k in samples if t < flooder.summary["at_s"]],
             "after": [(t, k) for t, k in samples if t >= flooder.summary.get("ended_s", float("inf"))]}
    return {name: {"from_to_s": [round(p[0][0]), round(p[-1][0])], "first": round(p[0][1] / 1024, 1),
                   "last": round(p[-1][1] / 1024, 1), "slope_mib_per_min": round(slope_mib_per_min(p), 3)}
            if p else None for name, p in parts.items()}


def sighup_all(ctx, events, now):
    """Renames each node's log and sends SIGHUP: the node must stay up and reopen its log."""
    for n in ctx.nodes:
        os.replace(n.log, n.log + ".1")
        n.proc.send_signal(signal.SIGHUP)
        reopened = False
        for _ in range(50):
            time.sleep(0.1)
            if os.path.exists(n.log) and "SIGHUP" in open(n.log).read():
                reopened = True
                break
        alive = n.proc.poll() is None
        events.append("%.0f s: SIGHUP to %s after renaming its log: %s, log %s" %
                      (now - ctx.t0, n.name, "alive" if alive else "DEAD (rc %s)" % n.proc.returncode,
                       "reopened" if reopened else "NOT reopened"))
        if not (alive and reopened):
            ctx.tally.add("UNEXPECTED", events[-1])
            if not alive:
                n.down.set()
                n.start()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/release/proofpipe"), help="the proofpipe binary")
    ap.add_argument("--duration", type=float, default=600, help="seconds of load (60: the short mode)")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--cluster", action="store_true", help="three nodes sharing a throwaway PostgreSQL")
    ap.add_argument("--warmup", type=float, default=None, help="seconds after the restart not judged for RSS")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--kinds", default=",".join(KINDS), help="job kinds to draw from (default: all)")
    ap.add_argument("--no-faults", action="store_true",
                    help="no kill -9, PostgreSQL restart, SIGHUP or flood (to study RSS alone)")
    ap.add_argument("--retained", type=int, default=200,
                    help="the daemon's max_retained_jobs: small enough to fill during the warm-up")
    ap.add_argument("--json", default=None, help="write the summary here too")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    warmup = args.warmup if args.warmup is not None else min(60.0, args.duration / 6)
    binary = os.path.abspath(args.bin)
    # The flood holds 2200 sockets of this process at once.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = tempfile.mkdtemp(prefix="pp_soak_")
    print("soak: %s, %s, %d clients, %.0f s, seed %d, in %s" %
          (binary, "cluster of 3 nodes" if args.cluster else "one daemon", args.clients, args.duration, seed, work),
          flush=True)

    class ctx:
        pass

    ctx.binary, ctx.dir, ctx.seed, ctx.cluster = binary, work, seed, args.cluster
    ctx.kinds = set(args.kinds.split(","))
    ctx.tally = tally()
    ctx.pg_windows = []  # [start, end or None] of each PostgreSQL restart (monotonic)
    ctx.pg_mu = threading.Lock()

    def in_pg_window(t_start, t_end):
        with ctx.pg_mu:
            return any(t_start <= (e + PG_GRACE_S if e is not None else float("inf")) and t_end >= s
                       for s, e in ctx.pg_windows)

    ctx.in_pg_window = in_pg_window
    ctx.zkey, ctx.vk = os.path.join(work, "mul.zkey"), os.path.join(work, "vk.json")
    r = subprocess.run([binary, "setup", os.path.join(ROOT, "tests/fixtures/circom/mul.r1cs"), ctx.zkey, "--vk", ctx.vk,
                        "--quiet"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise SystemExit("soak: setup failed: " + r.stderr)
    with open(os.path.join(ROOT, "tests/fixtures/circom/mul.wtns"), "rb") as f:
        if f.read() != wtns_bytes(mul_witness(3, 11)[0]):
            raise SystemExit("soak: this script's .wtns writer does not reproduce tests/fixtures/circom/mul.wtns")

    pg = None
    ctx.nodes = []
    fault_rng = random.Random(seed)
    try:
        if args.cluster:
            pg = postgres()
            pg.sql("postgres", "CREATE DATABASE soak")
            shared = os.path.join(work, "shared")
            os.mkdir(shared)
            # node-a stores every witness in the shared folder, the others keep them in the database.
            for name, inline in (("node-a", 0), ("node-b", 1 << 20), ("node-c", 1 << 20)):
                n = node(name, binary, work)
                n.write_config(args.retained, {"database": pg.conninfo("soak"), "shared_dir": shared,
                                               "inline_bytes": inline, "zkey": ctx.zkey})
                ctx.nodes.append(n)
        else:
            n = node("daemon", binary, work)
            n.write_config(args.retained)
            ctx.nodes.append(n)
        for n in ctx.nodes:
            n.start()
        return run(args, ctx, pg, work, warmup, fault_rng)
    finally:
        for n in ctx.nodes:
            if n.proc is not None and n.proc.poll() is None:
                n.proc.kill()
        if pg is not None:
            pg.stop()


def run(args, ctx, pg, work, warmup, fault_rng):
    t0 = ctx.t0 = time.monotonic()
    ctx.end = t0 + args.duration
    clients = [client(i, ctx) for i in range(args.clients)]
    for c in clients:
        c.start()
    probe = prober(ctx)
    probe.start()

    rss = {n.name: [] for n in ctx.nodes}  # (seconds since start, KiB, epoch, threads)
    events = []
    at = lambda f: t0 + f * args.duration
    todo = [] if args.no_faults else [(at(0.25), "kill"), (at(0.60), "hup"), (at(0.75), "flood")]
    if args.cluster and not args.no_faults:
        todo.append((at(0.45), "pg_restart"))
    todo.sort()
    victim = fault_rng.choice(ctx.nodes)
    restart_t = 0.0 if args.no_faults else None
    crashes = 0
    flooder = None
    pg_restart = None
    while time.monotonic() < ctx.end:
        now = time.monotonic()
        if todo and now >= todo[0][0]:
            what = todo.pop(0)[1]
            if what == "kill":
                victim.kill9()
                events.append("%.0f s: kill -9 %s (pid %d)" % (now - t0, victim.name, victim.proc.pid))
                time.sleep(2)
                victim.start()
                restart_t = time.monotonic() - t0
                events.append("%.0f s: %s restarted (pid %d), epoch %d" %
                              (restart_t, victim.name, victim.proc.pid, victim.epoch))
            elif what == "pg_restart":
                window = [now, None]
                with ctx.pg_mu:
                    ctx.pg_windows.append(window)
                ok = pg.pg_ctl("restart", "-m", "fast")
                with ctx.pg_mu:
                    window[1] = time.monotonic()
                pg_restart = {"at_s": round(now - t0, 1), "took_s": round(window[1] - now, 1), "ok": ok,
                              "database_errors_accepted_until_s": round(window[1] + PG_GRACE_S - t0, 1)}
                events.append("%.0f s: PostgreSQL restarted (pg_ctl restart -m fast) in %.1f s%s" %
                              (now - t0, window[1] - now, "" if ok else ": FAILED"))
                if not ok:
                    ctx.tally.add("UNEXPECTED", events[-1])
            elif what == "hup":
                sighup_all(ctx, events, now)
            elif what == "flood":
                flooder = flood(ctx, ctx.nodes[0])
                flooder.start()
                events.append("%.0f s: idle-connection flood on %s" % (now - t0, ctx.nodes[0].name))
        for n in ctx.nodes:
            if not n.down.is_set() and n.proc.poll() is not None:
                crashes += 1
                events.append("%.0f s: %s EXITED by itself (rc %s); restarted" %
                              (time.monotonic() - t0, n.name, n.proc.returncode))
                ctx.tally.add("UNEXPECTED", events[-1])
                n.down.set()
                n.start()
            sample = n.sample()
            if sample is not None:
                rss[n.name].append((now - t0, sample[0], n.epoch, sample[1]))
                n.max_fds = max(n.max_fds, sample[2])
        time.sleep(2)

    for c in clients:
        c.join(timeout=300)
    if flooder is not None:
        flooder.join(timeout=300)
    probe.stop.set()
    probe.join(timeout=60)
    stuck = [c.name for c in clients if c.is_alive()]
    db_jobs = None
    if pg is not None:
        try:
            db_jobs = dict(line.split("|") for line in
                           pg.sql("soak", "SELECT state, count(*) FROM pp_jobs GROUP BY state ORDER BY 1").splitlines())
        except RuntimeError as e:
            db_jobs = {"error": str(e)}
    # Every node drains at once: a cluster node that stays up would take over the others' claims.
    for n in ctx.nodes:
        n.proc.send_signal(signal.SIGTERM)
    for n in ctx.nodes:
        try:
            rc = n.proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            n.proc.kill()
            rc = "killed after 90 s"
        events.append("end: SIGTERM to %s, exit %s, socket %s" %
                      (n.name, rc, "left behind" if os.path.exists(n.socket) else "removed"))
        if rc != 0 or os.path.exists(n.socket):
            ctx.tally.add("UNEXPECTED", events[-1])
    if stuck:
        ctx.tally.add("UNEXPECTED", "clients still running after the end: %s" % stuck)

    summary = {
        "mode": "cluster" if args.cluster else "single",
        "seed": ctx.seed, "duration_s": args.duration, "clients": args.clients,
        "daemon_fd_limit": {n.name: n.nofile for n in ctx.nodes},
        "daemon_open_fds_max": {n.name: n.max_fds for n in ctx.nodes},
        "jobs": sum(ctx.tally.counts.values()), "outcomes": dict(sorted(ctx.tally.counts.items())),
        "retries": dict(sorted(ctx.tally.retries.items())),
        "error_texts": dict(sorted(ctx.tally.examples.items())),
        "crashes": crashes,
        "events": events,
        "metrics_probe": {name: dict(s, max_s=round(s["max_s"], 3)) for name, s in probe.stats.items()},
        "flood": flooder.summary if flooder is not None else None,
        "rss_max_mib": {name: round(max((k for _, k, _, _ in v), default=0) / 1024, 1) for name, v in rss.items()},
        "threads_max": {name: max((t for _, _, _, t in v), default=0) for name, v in rss.items()},
    }
    if args.cluster:
        summary["postgres_restart"] = pg_restart
        summary["db_jobs_by_state_before_sigterm"] = db_jobs
    else:
        # RSS is judged on the single daemon: after its restart plus the warm-up.
        d = ctx.nodes[0]
        judged = [(t, k, n) for t, k, e, n in rss[d.name]
                  if e == d.epoch and restart_t is not None and t >= restart_t + warmup]
        last = [(t, k) for t, k, _ in judged]
        summary["rss_mib"] = {
            "process": "after the restart, from %.0f s (warm-up %.0f s) to the end" %
                       ((restart_t or 0) + warmup, warmup),
            "samples": len(last),
            "first": round(last[0][1] / 1024, 1) if last else None,
            "min": round(min(k for _, k in last) / 1024, 1) if last else None,
            "max": round(max(k for _, k in last) / 1024, 1) if last else None,
            "last": round(last[-1][1] / 1024, 1) if last else None,
            "slope_mib_per_min": round(slope_mib_per_min(last), 3),
            "slope_second_half_mib_per_min": round(slope_mib_per_min(last[len(last) // 2:]), 3),
            "before_kill_max": round(max((k for _, k, e, _ in rss[d.name] if e == 1), default=0) / 1024, 1),
            # The flood's connections cost the daemon a step of RSS: the slope on either side of it.
            "around_the_flood": rss_around(last, flooder),
            "threads_min_max": [min((n for _, _, n in judged), default=0), max((n for _, _, n in judged), default=0)],
            "samples_s_mib": [[round(t), round(k / 1024, 2)] for t, k in last],
        }
    summary["failures"] = ctx.tally.failures[:50]
    # The RSS samples and each flood probe go to --json only; on stdout they would bury the rest.
    shown = json.loads(json.dumps(summary))
    shown.get("rss_mib", {}).pop("samples_s_mib", None)
    if shown["flood"]:
        shown["flood"]["metrics_during_s"].pop("all", None)
    print(json.dumps(shown, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(summary, indent=1) + "\n")
    bad = ctx.tally.counts.get("UNEXPECTED", 0) + ctx.tally.counts.get("WRONG_PROOF", 0)
    if bad == 0:
        shutil.rmtree(work, ignore_errors=True)
        if pg is not None:
            pg.stop()
            shutil.rmtree(pg.dir, ignore_errors=True)
        print("soak: PASS")
        return 0
    print("soak: FAIL (%d unexpected outcomes; files kept in %s%s)" %
          (bad, work, " and " + pg.dir if pg is not None else ""))
    return 1


if __name__ == "__main__":
    sys.exit(main())

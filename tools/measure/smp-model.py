#!/usr/bin/env python3
"""The YBWC and Lazy SMP trees at 1 to 64 threads, and the speedup they imply on as many
cores (docs/smp.md, "Past two cores: a model").

    python3 tools/measure/smp-model.py --engine ./saavedra-timing --depth 12 --hash 64 \\
        --threads 1,2,4,8,16,32,64 --modes YBWC,Lazy --repeat 3 --plot smp-model.png

For each thread count N and mode, `ENGINE bench DEPTH N HASH MODE` searches the bench
positions to a fixed depth and ends with one line of statistics, "SMP stats: k=v ..."
(src/commands/bench.c). One thread (either mode: the same search) is the baseline. With
--repeat K every run is made K times, interleaved, and each figure below is the median
of its K values. Progress goes to stderr; --save FILE keeps the runs (JSON) and --load
FILE prints the tables from saved runs without running anything.

Measured, per run (N threads, n_N nodes; n_1 and t_1 from the one-thread run):

  O      node overhead n_N / n_1: the extra tree the threads search to the same depth
  splits split points per 1000 nodes, helpers per split, the share ended by a cutoff
  idle   share of the threads' search time spent idle in the pool
  wait   share spent by owners waiting at their split point (helping excluded), or by
         thread 0 for the Lazy helpers to stop
  a      pool lock acquisitions per node
  h      mean hold of the pool lock (ns), less one clock read (the timing's own cost),
         holds over 100 us left out (the holder had lost its core); needs an engine
         built with -DSMP_LOCK_TIMING=1, else "-" (or --hold-ns)
  t_1    one thread's CPU time per node (ns), from the one-thread run
  c      CPU time per node at N threads / t_1 (not used by the model; see below)
  cpu    CPU the engine had / CPU it could use (near 1 on idle cores; "busy" below 0.9)

Search time excludes the gaps between the bench's searches (thread 0 idle in the pool,
while every other thread is too), and is the pool's virtual clock, not the wall clock:

  With N threads on P < N cores the wall times say nothing about N cores: a thread
  that waits for a helper waits while other threads hold the cores. The engine keeps a
  virtual clock that advances by P / running of the wall clock while more threads run
  (are not blocked in the pool's waits) than there are cores, and with the wall clock
  otherwise: the time the same run would take with the cores shared out equally
  (processor sharing), which is the run on one core per thread. Idle and wait times are
  taken on it. Rows with N > P are marked "*": they rest on that equal sharing.

The model. On N cores the busy threads search X nodes per second, the run needs
n_N = O * n_1 nodes, one thread needs T_1 = n_1 * t_1, so

  speedup S = T_1 / T_N = X * t_1 / O.                                            (1)

Without contention X = N * u / t_1 with u = 1 - idle - wait, the share of thread time
spent searching:

  S_tree = N * u / O.                                                             (2)

The pool lock is one serial resource: each node brings a acquisitions held h each, so
it is busy k = a * h per node and rho = X * k of the time. It cannot be busy more than
all the time (rho < 1), so X < 1 / k and

  S_lock = t_1 / (k * O)                        (bound, whatever N).              (3)

Below the bound, threads queue for the lock. Taking it as an M/M/1 server (Poisson
requests, exponential holds), a request waits W = h * rho / (1 - rho), and each node of
a busy thread costs t_1 + a * W:

  X * (t_1 + a * h * rho / (1 - rho)) = N * u,   rho = X * k.

With rho as the unknown, rho * t_1 / k + rho^2 / (1 - rho) = N * u, increasing in rho
on [0, 1): one root, found by bisection. Then

  S_model = (rho / k) * t_1 / O,                                                  (4)

which is S_tree when k -> 0 and S_lock when N -> infinity. The table also gives the
split point locks' load, rho_sp = (1 + helpers per split) * a_sp * h_sp / t_1: a split
point's lock is shared only by its own threads (at most 8), so it bounds nothing
globally, but a rho_sp near 1 means a split point's threads queue for their moves.

Where it breaks:

  - N > P (rows "*"): the virtual clock assumes the cores are shared equally and finely.
    The system shares them in slices of milliseconds, longer than most split points
    live at these depths, so an owner can wait for a helper that is not running at
    all: idle and wait come out too long and S_tree too low, more so the larger N / P.
    Longer waits also mean more timed wake-ups (lock acquisitions). The node overhead O
    and the split counts are the tree's, but of a run whose threads advanced unevenly.
  - Per-node cost: the model takes t_1 for every thread. On N cores, threads share
    caches, memory bandwidth and the hash table's lines, run at lower clocks with many
    cores busy, and on several sockets pay for remote memory; each split copies a
    position and stack entries. The column c shows the measured CPU per node at N
    threads against one, but with N > P it also holds context switches, so the model
    leaves it out: S_tree and S_model are upper estimates in that respect.
  - Lock hold: h is measured with the lock's cache line moving between at most P cores.
    On many cores every acquisition fetches it from another core (about 100 ns, more
    across sockets) and the wake-ups under the lock cost what the kernel takes; add
    such a transfer with --hold-add NS. The M/M/1 queue is an open one and takes
    exponential holds: it overstates waiting for steadier holds and misses bursts (many
    threads splitting at once at the start of an iteration).
  - Depth: shallow fixed-depth runs have a large serial part (no split below depth 4,
    the first iterations alone) and short searches; figures are of this depth only.
  - Lazy SMP: the same formulas give its time to depth (its helpers' nodes are
    overhead); they say nothing of the strength its deeper helpers may add.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

STATS_PREFIX = "SMP stats:"
LOCK_LONG_NS = 100000  # src/search/threads.h: longer holds are counted apart


def parse_stats(text):
    """The key=value pairs of the last "SMP stats:" line of a bench's output, as numbers
    (and its "Nodes searched"); None when there is no such line."""
    stats = None
    for line in text.splitlines():
        if line.startswith(STATS_PREFIX):
            stats = {}
            for pair in line[len(STATS_PREFIX):].split():
                key, _, value = pair.partition("=")
                try:
                    stats[key] = int(value)
                except ValueError:
                    stats[key] = float(value)
        elif line.startswith("Nodes searched:") and stats is not None:
            stats["nodes_searched"] = int(line.split(":")[1])
    return stats


def run_bench(engine, depth, threads, hash_mb, mode, timeout):
    cmd = [engine, "bench", str(depth), str(threads), str(hash_mb)] + ([mode] if mode else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    stats = parse_stats(p.stdout)
    if p.returncode != 0 or stats is None:
        raise RuntimeError("%s: exit %d, no statistics line\n%s" % (" ".join(cmd), p.returncode,
                                                                     p.stderr.strip()))
    if stats["threads"] != threads:
        raise RuntimeError("%s: ran %d threads" % (" ".join(cmd), stats["threads"]))
    return stats


def ratio(x, y):
    return x / y if y else 0.0


def clamp01(x):
    return min(1.0, max(0.0, x))


def time_per_node(base):
    """One thread's time per node (ns): CPU time where the system gives it, else search
    wall time."""
    if base.get("cpu_ns", 0) > 0:
        return base["cpu_ns"] / base["nodes"]
    return (base["wall_ns"] - base["gap_ns"]) / base["nodes"]


def derive(run, base, hold_ns=None, hold_add=0.0):
    """The figures of one run against the one-thread run `base` (both parse_stats)."""
    n, nodes = run["threads"], run["nodes"]
    search_ns = run["virtual_ns"] - run["gap_vns"]
    thread_ns = n * search_ns
    idle = clamp01(ratio(run["idle_vns"] - n * run["gap_vns"], thread_ns))
    wait = clamp01(ratio(run["wait_vns"], thread_ns))
    busy = 1.0 - idle - wait
    t1 = time_per_node(base)
    d = {
        "threads": n, "nodes": nodes, "overhead": ratio(nodes, base["nodes"]),
        "splits": run["splits"], "splits_per_k": 1000.0 * ratio(run["splits"], nodes),
        "helpers_per_split": ratio(run["helpers"], run["splits"]),
        "cutoff_share": ratio(run["cutoffs"], run["splits"]),
        "no_helper": run["no_helper"], "master_joins": run["master_joins"],
        "idle": idle, "wait": wait, "busy": busy,
        "lock_per_node": ratio(run["pool_lock_count"], nodes),
        "lock_long": run["pool_lock_long"],
        "sp_per_node": ratio(run["sp_lock_count"], nodes),
        "t1_ns": t1, "cpus": run["cpus"], "oversubscribed": n > run["cpus"],
        "cost": ratio(ratio(run["cpu_ns"], nodes), t1) if run["cpu_ns"] > 0 else None,
        # expected CPU: busy thread time on the virtual clock (see the docstring)
        "cpu_use": ratio(run["cpu_ns"], busy * thread_ns) if run["cpu_ns"] > 0 else None,
    }
    d["hold_ns"] = mean_hold(run, "pool_lock", hold_ns)
    d["sp_hold_ns"] = mean_hold(run, "sp_lock", None)
    if d["hold_ns"] is not None:
        d["hold_ns"] += hold_add
    d.update(model(n, busy, d["overhead"], t1, d["lock_per_node"], d["hold_ns"]))
    d["sp_rho"] = None
    if d["sp_hold_ns"] is not None and n > 1:
        d["sp_rho"] = (1 + d["helpers_per_split"]) * d["sp_per_node"] * d["sp_hold_ns"] / t1
    return d


def mean_hold(run, lock, given):
    """Mean hold (ns) of a lock without the holds over 100 us, less one clock read; the
    given value when set; None when the engine did not time its locks."""
    if given is not None:
        return float(given)
    if not run.get("lock_timing"):
        return None
    count = run[lock + "_count"] - run[lock + "_long"]
    if count <= 0:
        return 0.0
    held = run[lock + "_hold_ns"] - run[lock + "_long_ns"]
    return max(0.0, held / count - run.get("clock_ns", 0.0))


def solve_rho(n_busy, t1, k):
    """The root of rho * t1 / k + rho^2 / (1 - rho) = n_busy on [0, 1)."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid * t1 / k + mid * mid / (1 - mid) < n_busy:
            lo = mid
        else:
            hi = mid
    return lo


def model(n, busy, overhead, t1, lock_per_node, hold_ns):
    """S_tree, and with a hold time the lock's bound, its load and S_model (docstring)."""
    out = {"s_tree": ratio(n * busy, overhead), "s_lock": None, "rho": None, "s_model": None}
    if hold_ns is None:
        return out
    k = lock_per_node * hold_ns
    if k <= 0 or n == 1:
        out.update(s_lock=float("inf"), rho=0.0, s_model=out["s_tree"])
        return out
    rho = solve_rho(n * busy, t1, k)
    out.update(s_lock=t1 / (k * overhead), rho=rho, s_model=(rho / k) * t1 / overhead)
    return out


def median_rows(rows):
    """Per key, the median over repeats (None when any is None)."""
    out = {}
    for key in rows[0]:
        values = [r[key] for r in rows]
        if any(v is None for v in values):
            out[key] = None
        elif isinstance(values[0], bool):
            out[key] = values[0]
        else:
            out[key] = statistics.median(values)
    return out


def analyse(runs, hold_ns=None, hold_add=0.0):
    """runs: {"base": [stats...], "YBWC": {N: [stats...]}, ...} -> rows (medians)."""
    bases = runs["base"]
    rows = []
    base_rows = [derive(b, b, hold_ns, hold_add) for b in bases]
    rows.append(dict(median_rows(base_rows), mode="-"))
    for mode, by_n in runs["modes"].items():
        for n in sorted(by_n, key=int):
            reps = by_n[n]
            derived = [derive(r, bases[i % len(bases)], hold_ns, hold_add)
                       for i, r in enumerate(reps)]
            rows.append(dict(median_rows(derived), mode=mode))
    return rows


def fmt(x, spec, none="-"):
    if x is None:
        return none
    if x == float("inf"):
        return "inf"
    return spec % x


def print_tables(rows, out=sys.stdout):
    w = out.write
    w("Tree and pool (medians; idle and wait on the virtual clock; * more threads than cores)\n")
    w("%7s %-5s %11s %8s %8s %7s %7s %7s %6s %6s %8s %8s %6s %8s %7s\n" % (
        "threads", "mode", "nodes", "overhead", "splits", "/1000n", "helpers", "cutoff",
        "idle", "wait", "lock/n", "hold_ns", "sp/n", "sp_hold", "cpu"))
    for r in rows:
        cpu = fmt(r["cpu_use"], "%.2f")
        if r["cpu_use"] is not None and r["cpu_use"] < 0.9:
            cpu += "!"
        w("%6d%1s %-5s %11d %8.3f %8d %7.2f %7.2f %7.3f %6.3f %6.3f %8.4f %8s %6.3f %8s %7s\n" % (
            r["threads"], "*" if r["oversubscribed"] else "", r["mode"], r["nodes"],
            r["overhead"], r["splits"], r["splits_per_k"], r["helpers_per_split"],
            r["cutoff_share"], r["idle"], r["wait"], r["lock_per_node"],
            fmt(r["hold_ns"], "%.0f"), r["sp_per_node"], fmt(r["sp_hold_ns"], "%.0f"), cpu))
    w("\nModel (t_1 = %.0f ns a node): S_tree = N*u/O; S_lock = t_1/(a*h*O); S_model with "
      "the lock as an M/M/1 queue\n" % rows[0]["t1_ns"])
    w("%7s %-5s %6s %8s %8s %7s %8s %8s %7s\n" % (
        "threads", "mode", "u", "S_tree", "c", "rho", "S_lock", "S_model", "rho_sp"))
    for r in rows:
        w("%6d%1s %-5s %6.3f %8.2f %8s %7s %8s %8s %7s\n" % (
            r["threads"], "*" if r["oversubscribed"] else "", r["mode"], r["busy"],
            r["s_tree"], fmt(r["cost"], "%.2f"), fmt(r["rho"], "%.3f"),
            fmt(r["s_lock"], "%.1f"), fmt(r["s_model"], "%.2f"), fmt(r["sp_rho"], "%.3f")))
    if any(r["hold_ns"] is None for r in rows):
        w("No lock hold times: build the engine with EXTRA_CFLAGS=-DSMP_LOCK_TIMING=1 "
          "(docs/smp.md) or give --hold-ns.\n")
    if any(r["cpu_use"] is not None and r["cpu_use"] < 0.9 for r in rows):
        w("cpu < 0.9 (!): the engine had less CPU than its running threads could use; "
          "something else was running.\n")


def plot(rows, path):
    if not shutil.which("gnuplot"):
        print("plot: gnuplot is not installed, no %s" % path, file=sys.stderr)
        return
    modes = sorted({r["mode"] for r in rows if r["mode"] != "-"})
    data = tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False)
    series = []
    for i, mode in enumerate(modes):
        data.write("# %s\n" % mode)
        for r in [r for r in rows if r["mode"] in (mode, "-")]:
            model_s = r["s_model"] if r["s_model"] is not None else r["s_tree"]
            data.write("%d %.4f %.4f\n" % (r["threads"], r["s_tree"], model_s))
        data.write("\n\n")
        series.append("'%s' index %d using 1:3 with linespoints lw 2 lc %d title '%s S_model'"
                      % (data.name, i, i + 1, mode))
        series.append("'%s' index %d using 1:2 with lines dt 2 lc %d title '%s S_tree'"
                      % (data.name, i, i + 1, mode))
    data.close()
    script = ("set terminal pngcairo noenhanced size 900,550; set output '%s';"
              "set title 'Expected speedup to a fixed depth on N cores (model)';"
              "set xlabel 'threads = cores'; set ylabel 'speedup'; set logscale xy 2; set grid;"
              "set key top left; plot x with lines dt 3 lc rgb 'gray' title 'N', %s"
              % (path, ", ".join(series)))
    subprocess.run(["gnuplot", "-e", script], check=False)
    os.unlink(data.name)
    print("plot: %s" % path, file=sys.stderr)


def measure(a):
    threads = sorted({int(t) for t in a.threads.split(",")} - {1})
    modes = [m for m in a.modes.split(",") if m]
    runs = {"depth": a.depth, "hash": a.hash, "engine": a.engine, "base": [],
            "modes": {m: {} for m in modes}}
    plan = [(1, None)] + [(n, m) for n in threads for m in modes]
    total, done, started = len(plan) * a.repeat, 0, time.time()
    for rep in range(a.repeat):
        for n, mode in plan:
            done += 1
            print("[%d/%d] depth %d, %d thread%s%s, run %d of %d ..." % (
                done, total, a.depth, n, "s" if n > 1 else "", " " + mode if mode else "",
                rep + 1, a.repeat), file=sys.stderr, end="", flush=True)
            t0 = time.time()
            stats = run_bench(a.engine, a.depth, n, a.hash, mode, a.timeout)
            print(" %d nodes, %.1f s (%.0f s in all)" % (stats["nodes"], time.time() - t0,
                                                        time.time() - started), file=sys.stderr)
            if mode is None:
                runs["base"].append(stats)
            else:
                runs["modes"][mode].setdefault(str(n), []).append(stats)
    return runs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="./saavedra")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--hash", type=int, default=64, help="MB")
    ap.add_argument("--threads", default="1,2,4,8,16,32,64")
    ap.add_argument("--modes", default="YBWC,Lazy")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, median taken")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds a bench may take")
    ap.add_argument("--hold-ns", type=float, help="pool lock hold time to assume (ns)")
    ap.add_argument("--hold-add", type=float, default=0.0,
                    help="ns added to each hold (cache-line transfer on many cores)")
    ap.add_argument("--save", help="write the runs to this JSON file")
    ap.add_argument("--load", help="read runs from this JSON file instead of running")
    ap.add_argument("--plot", help="PNG of S_tree and S_model against N (gnuplot)")
    a = ap.parse_args(argv)
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    if a.load:
        with open(a.load) as f:
            runs = json.load(f)
    else:
        a.engine = os.path.abspath(a.engine)
        runs = measure(a)
    if a.save:
        with open(a.save, "w") as f:
            json.dump(runs, f, indent=1)
    rows = analyse(runs, a.hold_ns, a.hold_add)
    print("Depth %d, hash %d MB, %s; %d core%s" % (
        runs["depth"], runs["hash"], os.path.basename(runs["engine"]), rows[0]["cpus"],
        "s" if rows[0]["cpus"] != 1 else ""))
    print_tables(rows)
    if a.plot:
        plot(rows, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The SMP model's script (tools/measure/smp-model.py) and the bench statistics it reads:
the "SMP stats:" line parses into numbers and has every key the script uses, the model's
formulas meet their limits, and a tiny run (depth 6, 1, 2 and 4 threads, both modes)
prints a row for each with sane values, again from its saved runs.

usage: python3 tests/test_smp_model.py ENGINE
"""
import importlib.util
import os
import sys

import testkit
from testkit import check, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TMP = testkit.temp_dir("smp-model")
SCRIPT = os.path.join(testkit.ROOT, "tools", "measure", "smp-model.py")
spec = importlib.util.spec_from_file_location("smp_model", SCRIPT)
smp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(smp)

KEYS = ("threads cpus nodes wall_ns virtual_ns cpu_ns gap_ns gap_vns splits helpers cutoffs "
        "no_helper master_joins idle_ns wait_ns idle_vns wait_vns lock_timing clock_ns").split()
KEYS += ["%s_%s" % (lock, what) for lock in ("pool_lock", "sp_lock")
         for what in ("count", "hold_ns", "wait_ns", "long", "long_ns")]


@test
def statistics_line_parses():
    text = ("Total time (ms): 12\nSMP stats: threads=4 cpus=2 nodes=1000 wall_ns=5 clock_ns=27.5 "
            "pool_lock_count=7\nNodes searched: 1000\n")
    s = smp.parse_stats(text)
    check(s == {"threads": 4, "cpus": 2, "nodes": 1000, "wall_ns": 5, "clock_ns": 27.5,
                "pool_lock_count": 7, "nodes_searched": 1000}, s)
    check(smp.parse_stats("Nodes searched: 5\n") is None, "no statistics line")


@test
def bench_prints_every_key():
    rc, out, err = testkit.run([ENGINE, "bench", "5", "2", "16", "YBWC"], timeout=120)
    s = smp.parse_stats(out)
    check(rc == 0 and s is not None, "rc %d: %s" % (rc, err))
    missing = [k for k in KEYS if k not in s]
    check(not missing, "missing keys %s" % missing)
    check(s["threads"] == 2 and s["nodes"] == s["nodes_searched"] and s["cpus"] >= 1, s)
    check(s["wall_ns"] > 0 and s["virtual_ns"] > 0 and s["gap_ns"] <= s["wall_ns"], s)
    check(s["pool_lock_count"] > 0 and s["helpers"] >= s["splits"], s)
    check("Locks: pool" in out and "Splits:" in out, out)
    rc, out, err = testkit.run([ENGINE, "bench", "3"], timeout=120)
    s = smp.parse_stats(out)
    check(rc == 0 and s and s["threads"] == 1 and s["splits"] == 0, "one thread: %s" % out)


@test
def model_meets_its_limits():
    t1, a, h = 500.0, 0.01, 2000.0   # ns a node; acquisitions a node; ns a hold
    k = a * h
    few = smp.model(2, 0.9, 1.1, t1, a * 1e-6, h)     # almost no lock: S_tree
    check(abs(few["s_model"] - few["s_tree"]) < 1e-3, few)
    many = smp.model(4096, 0.9, 1.1, t1, a, h)          # saturated: the bound
    check(many["rho"] > 0.99 and many["s_model"] <= many["s_lock"], many)
    check(abs(many["s_lock"] - t1 / (k * 1.1)) < 1e-9, many)
    mid = smp.model(16, 0.8, 1.2, t1, a, h)
    check(0 < mid["s_model"] < min(mid["s_tree"], mid["s_lock"]), mid)
    # rho solves rho * t1 / k + rho^2 / (1 - rho) = N * u
    r = mid["rho"]
    check(abs(r * t1 / k + r * r / (1 - r) - 16 * 0.8) < 1e-6, mid)
    none = smp.model(8, 0.8, 1.2, t1, a, None)
    check(none["s_model"] is None and none["s_tree"] > 0, none)


def table_rows(out):
    """The rows of the first table: (threads, mode) -> the numbers after them."""
    rows, body = {}, out.split("Tree and pool", 1)[-1].split("\n\n", 1)[0]
    for line in body.splitlines()[2:]:
        cells = line.split()
        rows[(int(cells[0].rstrip("*")), cells[1])] = cells[2:]
    return rows


def check_table(out):
    rows = table_rows(out)
    want = [(1, "-"), (2, "YBWC"), (4, "YBWC"), (2, "Lazy"), (4, "Lazy")]
    check(sorted(rows) == sorted(want), "rows %s" % sorted(rows))
    for key, cells in rows.items():
        nodes, overhead = int(cells[0]), float(cells[1])
        idle, wait = float(cells[6]), float(cells[7])
        check(nodes > 0 and overhead > 0, "%s: %s" % (key, cells))
        check(0 <= idle <= 1 and 0 <= wait <= 1 and idle + wait <= 1, "%s: %s" % (key, cells))
    check("S_model" in out and "S_tree" in out, out)


@test
def tiny_run_prints_every_row():
    saved = os.path.join(TMP, "runs.json")
    rc, out, err = testkit.run([sys.executable, SCRIPT, "--engine", ENGINE, "--depth", "6",
                                "--hash", "16", "--threads", "1,2,4", "--modes", "YBWC,Lazy",
                                "--save", saved], timeout=300)
    check(rc == 0, "rc %d: %s" % (rc, err))
    check("[5/5]" in err, "progress: %r" % err)
    check_table(out)
    args = [sys.executable, SCRIPT, "--load", saved, "--hold-ns", "1000"]
    png = os.path.join(TMP, "model.png")
    if testkit.have("gnuplot", "the plot"):
        args += ["--plot", png]
    rc, again, err = testkit.run(args)
    check(rc == 0, "--load: rc %d: %s" % (rc, err))
    check_table(again)
    check("No lock hold times" not in again, "--hold-ns gives the hold time")
    check(not args[-1].endswith(".png") or os.path.getsize(png) > 0, "no plot")


testkit.finish()

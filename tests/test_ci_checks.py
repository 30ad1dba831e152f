#!/usr/bin/env python3
"""The checks CI runs on the tree: tools/ci/check-bench.sh.

usage: python3 tests/test_ci_checks.py ENGINE   (the engine is not used)
Checks: check-bench.sh takes the newest commit line that is exactly "Bench: N" as the
signature ("Bench N", "Bench: N." and "Bench: N nodes" are prose and skipped), passes
when the engine's count matches it, fails when not, and passes with a note without one.
The last line is "N passed, N failed".
"""
import os
import shutil
import stat

import testkit
from testkit import check, test

TMP = testkit.temp_dir("ci-checks")
CHECK_BENCH = os.path.join(testkit.ROOT, "tools", "ci", "check-bench.sh")


def git(repo, *args):
    rc, out, err = testkit.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t",
                                "-c", "commit.gpgsign=false", *args])
    check(rc == 0, "git %s: %s" % (args, err))
    return out


def bench_repo(name, messages, nodes):
    """A repository holding check-bench.sh, one commit per message (oldest first), and a
    stand-in engine whose bench reports `nodes` nodes."""
    repo = os.path.join(TMP, name)
    os.makedirs(os.path.join(repo, "tools", "ci"))
    shutil.copy(CHECK_BENCH, os.path.join(repo, "tools", "ci", "check-bench.sh"))
    engine = os.path.join(repo, "engine")
    with open(engine, "w") as f:
        f.write("#!/bin/sh\necho 'Nodes/second: 1000'\necho '%d nodes 1000 nps'\n" % nodes)
    os.chmod(engine, os.stat(engine).st_mode | stat.S_IXUSR)
    git(repo, "init", "-q")
    for i, message in enumerate(messages):
        git(repo, "commit", "-q", "--allow-empty", "-m", "change %d" % i, "-m", message)
    return repo, engine


def check_bench(repo, engine):
    return testkit.run(["bash", os.path.join(repo, "tools", "ci", "check-bench.sh"), engine])


@test
def bench_signature_must_be_exactly_bench_colon_n():
    # The newest lines are prose; the signature is the oldest commit's.
    repo, engine = bench_repo("prose", ["Bench: 123", "Bench 999", "Bench: 999.",
                                        "Bench: 999 nodes", " Bench: 999"], 123)
    rc, out, err = check_bench(repo, engine)
    check(rc == 0 and "matches Bench: 123" in out, "rc %d: %s %s" % (rc, out, err))


@test
def bench_mismatch_fails():
    repo, engine = bench_repo("mismatch", ["Bench: 123", "Bench: 456"], 123)
    rc, out, err = check_bench(repo, engine)
    check(rc == 1 and "FAILED" in out and "Bench: 456" in out, "rc %d: %s %s" % (rc, out, err))


@test
def bench_without_signature_passes_with_a_note():
    repo, engine = bench_repo("none", ["Bench 123.", "no signature here"], 123)
    rc, out, err = check_bench(repo, engine)
    check(rc == 0 and "nothing to compare" in out, "rc %d: %s %s" % (rc, out, err))


testkit.finish()

#!/usr/bin/env python3
"""The checks CI runs on the tree: tools/ci/check-bench.sh and tools/ci/check-lines.py.

usage: python3 tests/test_ci_checks.py ENGINE   (the engine is not used)
Checks: check-bench.sh takes the newest commit line that is exactly "Bench: N" as the
signature ("Bench N", "Bench: N." and "Bench: N nodes" are prose and skipped), passes
when the engine's count matches it, fails when not, and passes with a note without one;
check-lines.py finds the lines over the limit (and only those) with file and line, fails
on them, passes with --warn, honours --max and leaves src/external out; src itself holds
no line over the limit. The last line is "N passed, N failed".
"""
import os
import shutil
import stat
import sys

import testkit
from testkit import check, test

TMP = testkit.temp_dir("ci-checks")
CHECK_BENCH = os.path.join(testkit.ROOT, "tools", "ci", "check-bench.sh")
CHECK_LINES = os.path.join(testkit.ROOT, "tools", "ci", "check-lines.py")


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


def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))


def check_lines(*args):
    return testkit.run([sys.executable, CHECK_LINES, *args])


TREE = os.path.join(TMP, "tree")
write(os.path.join(TREE, "a.c"), ["x" * 100, "y" * 101, "/* é */ " + "z" * 92])
write(os.path.join(TREE, "sub", "b.h"), ["int b;", "w" * 140])
write(os.path.join(TREE, "notes.txt"), ["n" * 300])


@test
def long_lines_are_found_with_file_and_line():
    rc, out, err = check_lines(TREE)
    lines = out.splitlines()
    check(rc == 1, "rc %d: %s" % (rc, out))
    # Characters, not bytes: the line with an accented letter is 100 characters.
    found = sorted(os.path.basename(line.split(":")[0]) + ":" + line.split(":")[1]
                   for line in lines[:-1])
    check(found == ["a.c:2", "b.h:2"], out)
    check("101 characters" in out and "140 characters" in out, out)
    check(lines[-1] == "2 files, 2 lines over 100 characters in 2 of them", lines[-1])


@test
def warn_reports_without_failing_and_max_sets_the_limit():
    rc, out, err = check_lines("--warn", TREE)
    check(rc == 0 and out.strip() == "2 files, 2 lines over 100 characters in 2 of them "
          "(not enforced: --warn)", "rc %d: %s" % (rc, out))
    rc, out, err = check_lines("--max", "140", TREE)
    check(rc == 0 and out.strip() == "2 files, 0 lines over 140 characters in 0 of them",
          "rc %d: %s" % (rc, out))


@test
def src_is_the_default_and_external_is_left_out():
    rc, out, err = check_lines("--warn")
    check(rc == 0 and out.startswith("%d files," % sum(
        1 for root, dirs, files in os.walk(os.path.join(testkit.ROOT, "src"))
        if "external" not in os.path.relpath(root, testkit.ROOT).split(os.sep)
        for name in files if name.endswith((".c", ".h")))), out)
    rc, out, err = check_lines()
    check("src/external" not in out, out)
    check(rc == 0 and " 0 lines over 100 characters" in out, "rc %d: %s" % (rc, out))


testkit.finish()

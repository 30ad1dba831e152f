#!/usr/bin/env python3
"""The version the build fixed (Makefile: VERSION file, else git describe) is the one the
engine shows: --version (with commit, system and the built-in net's checksum), UCI
`id name`, xboard `myname`.   python3 tests/test_version.py ENGINE"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testkit  # noqa: E402
from enginepipe import engine_command  # noqa: E402
from testkit import ROOT, check, test  # noqa: E402

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "./saavedra"


def run(text=None, *args):
    p = subprocess.run(engine_command(ENGINE, *args), input=text, capture_output=True, text=True, timeout=60)
    return p.stdout


def git(*args):
    p = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def version_line():
    m = re.match(r"^Saavedra (\S+) \(commit (\S+), (linux|windows), built-in net (\S+)\)$", run(None, "--version").strip())
    check(m, "--version: %r" % run(None, "--version"))
    return m.groups()


@test
def version_is_the_checkout_described():
    version, commit, _, _ = version_line()
    if os.path.exists(os.path.join(ROOT, "VERSION")):
        with open(os.path.join(ROOT, "VERSION")) as f:
            check(version == f.read().strip().lstrip("v"), "not the VERSION file: %s" % version)
        return
    described = git("describe", "--tags", "--always", "--dirty")
    if described is None:
        return  # not a checkout: nothing to compare with
    built = commit.replace("-dirty", "")
    check(git("cat-file", "-t", built) == "commit", "commit %s unknown to git" % commit)
    # The binary may be older than the checkout: compare with its own commit described.
    expected = git("describe", "--tags", "--always", built)
    check(version.replace("-dirty", "") == re.sub(r"^v", "", expected),
          "version %s, git describe of %s: %s" % (version, built, expected))


@test
def net_id_is_the_built_in_nets_checksum():
    _, _, _, net = version_line()
    path = os.path.join(ROOT, "src/nnue/nets/default.nnue")
    if net == "none" or not os.path.exists(path):
        return
    with open(path, "rb") as f:
        f.seek(-4, os.SEEK_END)
        crc = int.from_bytes(f.read(4), "little")
    check(net == "%08x" % crc, "net %s, file ends with %08x" % (net, crc))


@test
def protocols_name_the_same_version():
    version = version_line()[0]
    uci = run("uci\nquit\n")
    check(("id name Saavedra %s\n" % version) in uci, "id name: %r" % uci.splitlines()[:1])
    xb = run("xboard\nprotover 2\nquit\n")
    check(('myname="Saavedra %s"' % version) in xb, "myname: %r" % re.findall(r'myname="[^"]*"', xb))


testkit.finish()

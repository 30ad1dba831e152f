"""What the tool and command-line test scripts share (the protocol scripts drive the
engine through enginepipe.py): the paths, the test/check harness and its summary line,
running a program, and a temporary folder removed when the script ends.

    import testkit
    from testkit import check, test

    TMP = testkit.temp_dir("selfplay")
    rc, out, err = testkit.run([testkit.tool("selfplay"), "-games", "2"])

    @test
    def something():
        check(rc == 0, err)

    testkit.finish()   # prints "N passed, N failed" and exits non-zero on a failure
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The programs of tools/ (make test sets $SAAVEDRA_TOOLS to build/<ARCH>/tools).
TOOLS = os.environ.get("SAAVEDRA_TOOLS", os.path.join(ROOT, "build", "native", "tools"))
results = []


def tool(name):
    return os.path.join(TOOLS, name)


def test(fn):
    """Runs fn at once and records whether it raised."""
    try:
        fn()
        results.append(True)
        print("ok   %s" % fn.__name__)
    except Exception as exc:
        results.append(False)
        print("FAIL %s: %s" % (fn.__name__, exc))
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run(cmd, stdin=None, timeout=300, cwd=None, env=None):
    """Runs cmd to its end; returns (exit status, stdout, stderr) as text."""
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout,
                       cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


def temp_dir(label):
    """A new folder for this script's files, removed (with them) when the script ends."""
    path = tempfile.mkdtemp(prefix="saavedra-%s-test-" % label)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def have(program, needed_for):
    """Whether an optional program is in PATH; when not, says which check is skipped."""
    if shutil.which(program):
        return True
    print("skip %s: needs %s, which is not in PATH" % (needed_for, program))
    return False


def env_without_path_programs(env=None):
    """The environment with a PATH that finds no program (an empty folder): for runs
    that must find an optional program (gnuplot) missing."""
    empty = temp_dir("empty-path")
    return dict(env if env is not None else os.environ, PATH=empty)


def finish():
    print("%d passed, %d failed" % (results.count(True), results.count(False)))
    sys.exit(0 if all(results) else 1)

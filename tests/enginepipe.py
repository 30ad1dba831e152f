"""The engine driven over pipes, shared by the protocol test scripts.

EnginePipe starts the engine, reads its output on a thread, and offers send/expect with
time-outs; the scripts subclass it for their protocol's handshake.
"""
import os
import queue
import re
import shlex
import subprocess
import threading
import time

# A program the engine runs under, e.g. SAAVEDRA_ENGINE_WRAPPER=wine for saavedra.exe
# (make test-windows): the same scripts then test the Windows build.
WRAPPER = shlex.split(os.environ.get("SAAVEDRA_ENGINE_WRAPPER", ""))


def info_score(line):
    """The score of a UCI info line as ("cp" or "mate", value), or None without one."""
    m = re.search(r" score (cp|mate) (-?\d+)", line)
    return (m.group(1), int(m.group(2))) if m else None


def engine_command(engine, *args):
    """The command line that starts engine with args (under the wrapper, if any)."""
    return [*WRAPPER, engine, *args]


class EnginePipe:
    def __init__(self, engine, *args, merge_stderr=True, cwd=None):
        self.proc = subprocess.Popen(engine_command(engine, *args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT if merge_stderr else subprocess.DEVNULL,
                                     text=True, bufsize=1, cwd=cwd)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def expect(self, predicate, timeout=10.0):
        """Lines read until one satisfies predicate (that one last); raises on timeout."""
        seen = []
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no matching line within %.1fs; got: %s" % (timeout, seen[-6:]))
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EOFError("engine exited; got: %s" % seen[-6:])
            seen.append(line)
            if predicate(line):
                return seen

    def lines_within(self, seconds):
        """Every line that arrives within the given time."""
        got = []
        end = time.time() + seconds
        while time.time() < end:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                continue
            if line is not None:
                got.append(line)
        return got

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self, timeout=10):
        try:
            self.send("quit")
            self.proc.wait(timeout=timeout)
        except Exception:  # noqa: BLE001 - a hung engine is killed
            self.proc.kill()

"""The match runner the measuring scripts play with, chosen as tools/recipes/match-common.sh
chooses it: MATCH_RUNNER = fastchess, cutechess (cutechess-cli), saavedra-match (the node
match tool, the folder of match.mjs in SAAVEDRA_MATCH) or a runner's path; unset:
fastchess, then cutechess-cli from PATH, then the node tool.

The scripts write their matches in the node tool's syntax (`--engine cmd=... name=...
option.X=Y`, `--each`, `--games N`, `--openings FILE --order sequential|random`, `--seed`,
`--concurrency`, `--resign`, `--draw`, `--pgnout`, `--log`, `--ratinginterval`);
command() gives the chosen runner's command for them:

- fastchess and cutechess-cli: single-dash switches, `--games N` as `-games 2 -rounds
  N/2 -repeat` (each opening with both colours, as the node tool plays it), `-openings
  file=F format=pgn|epd order=...`, `-srand`, `-pgnout` (fastchess `file=F`), each UCI
  engine `proto=uci` for cutechess-cli; the protocol log (`--log F`) is fastchess's
  `-log file=F level=trace engine=true`, and for cutechess-cli its `-debug` lines, which
  the caller keeps apart from the rest of the output (debug_line()).
"""
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_DEFAULT = os.path.join(os.path.dirname(ROOT), "shared", "tools", "match")
KINDS = ("fastchess", "cutechess", "saavedra-match")


class RunnerError(Exception):
    pass


def find(env=None):
    """(kind, program or the node tool's folder); RunnerError says what to install."""
    env = os.environ if env is None else env
    want = env.get("MATCH_RUNNER", "")
    node_dir = env.get("SAAVEDRA_MATCH", NODE_DEFAULT)
    path = env.get("PATH", os.defpath)
    if not want:
        for kind, program in (("fastchess", "fastchess"), ("cutechess", "cutechess-cli")):
            found = shutil.which(program, path=path)
            if found:
                return kind, found
        if os.path.isfile(os.path.join(node_dir, "match.mjs")):
            return "saavedra-match", node_dir
        raise RunnerError("no match runner found: install fastchess (https://github.com/Disservin/fastchess) or "
                          "cutechess-cli (https://github.com/cutechess/cutechess) in PATH, or set MATCH_RUNNER "
                          "to one's path (or to saavedra-match with SAAVEDRA_MATCH, the folder of match.mjs)")
    if want in ("fastchess", "cutechess", "cutechess-cli"):
        program = "cutechess-cli" if want.startswith("cutechess") else want
        found = shutil.which(program, path=path)
        if not found:
            raise RunnerError("MATCH_RUNNER=%s: %s is not in PATH" % (want, program))
        return ("cutechess" if want.startswith("cutechess") else want), found
    if want == "saavedra-match":
        if not os.path.isfile(os.path.join(node_dir, "match.mjs")):
            raise RunnerError("MATCH_RUNNER=saavedra-match: no match.mjs in %s (set SAAVEDRA_MATCH)" % node_dir)
        return "saavedra-match", node_dir
    if os.path.isdir(want) and os.path.isfile(os.path.join(want, "match.mjs")):
        return "saavedra-match", os.path.abspath(want)
    if os.path.basename(want) == "match.mjs" and os.path.isfile(want):
        return "saavedra-match", os.path.dirname(os.path.abspath(want))
    if os.path.isfile(want) and os.access(want, os.X_OK):
        name = os.path.basename(want)
        for kind in ("fastchess", "cutechess"):
            if kind in name:
                return kind, os.path.abspath(want)
        raise RunnerError("MATCH_RUNNER=%s: cannot tell which runner it is (its name holds neither fastchess "
                          "nor cutechess)" % want)
    raise RunnerError("MATCH_RUNNER=%s: no such program (fastchess, cutechess, saavedra-match or a path)" % want)


def _take(args, i):
    """The values after args[i] up to the next switch."""
    j = i + 1
    while j < len(args) and not args[j].startswith("--"):
        j += 1
    return args[i + 1:j], j


def command(kind, runner, args):
    """(argv, working folder or None) for node-style args on the given runner."""
    if kind == "saavedra-match":
        return ["node", "match.mjs"] + list(args), runner
    out = [runner]
    i, games, order = 0, None, "random"
    openings = None
    while i < len(args):
        flag = args[i]
        values, i = _take(args, i)
        name = flag[2:]
        if name == "engine":
            if kind == "cutechess" and not any(v.startswith("proto=") for v in values):
                values = ["proto=uci"] + values
            out += ["-engine"] + values
        elif name == "games":
            games = int(values[0])
        elif name == "openings":
            openings = values[0]
        elif name == "order":
            order = values[0]
        elif name == "seed":
            out += ["-srand"] + values
        elif name == "pgnout":
            out += ["-pgnout"] + (["file=" + values[0]] if kind == "fastchess" else values)
        elif name == "log":
            out += (["-log", "file=" + values[0], "level=trace", "engine=true"] if kind == "fastchess"
                    else ["-debug"])
        elif name == "sprt":
            extra = [v for v in ("alpha=0.05", "beta=0.05") if not any(x.startswith(v[:5]) for x in values)]
            out += ["-sprt"] + values + extra
        else:  # each, concurrency, resign, draw, ratinginterval: the same words
            out += ["-" + name] + values
    if openings:
        fmt = "epd" if openings.endswith(".epd") else "pgn"
        out += ["-openings", "file=" + openings, "format=" + fmt, "order=" + order]
    if games:
        out += ["-games", "2", "-rounds", str((games + 1) // 2), "-repeat"]
    return out, None


CUTECHESS_DEBUG = re.compile(r"^\d+ [<>]")


def debug_line(kind, line):
    """Whether an output line is cutechess-cli's -debug protocol traffic (for the log)."""
    return kind == "cutechess" and CUTECHESS_DEBUG.match(line) is not None


PROGRESS = re.compile(r"^(?:Score of .*\] (\d+)|Finished game (\d+) )")


def games_done(line):
    """The number of games finished that a progress line says, None for other lines:
    cutechess and the node tool's `Score of ... [0.500] N`, fastchess's `Finished game N`."""
    m = PROGRESS.match(line)
    if not m:
        return None
    return int(m.group(1) or m.group(2))

#!/usr/bin/env python3
"""Writes the self-play seed sessions of the protocol harnesses (tests/fuzz/sessions/
*-selfplay-*.txt): real games with legal moves (castling, promotions, captures, mates),
so that the fuzzer starts from states a GUI reaches, not only from the start position.

    python3 tests/fuzz/make_sessions.py ./saavedra      (run from the repository root)

Each game is played by the engine against itself at a few hundred nodes a move from a
fixed opening, then written as a UCI session (position ... moves, go at several points,
options on the way) and as an xboard session (force mode moves, setboard, go, undo).
The files are kept in the repository; this script is only needed to make new ones.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from enginepipe import EnginePipe  # noqa: E402

OPENINGS = [
    ("startpos", []),
    ("startpos", ["d2d4", "g8f6", "c2c4", "e7e6"]),
    ("fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []),
    ("fen 8/2P5/8/8/8/8/5kp1/K7 w - - 0 1", []),
    ("fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", []),
]


def play(engine, start, opening, nodes=300, max_plies=160):
    moves = list(opening)
    with EnginePipe(engine) as e:
        e.send("uci")
        e.expect(lambda l: l == "uciok")
        while len(moves) < max_plies:
            e.send("position %s moves %s" % (start, " ".join(moves)))
            e.send("go nodes %d" % nodes)
            line = e.expect(lambda l: l.startswith("bestmove"), timeout=30)[-1]
            move = line.split()[1]
            if move in ("(none)", "0000"):
                break
            moves.append(move)
        e.send("quit")
    return moves


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else "./saavedra"
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sessions")
    for k, (start, opening) in enumerate(OPENINGS):
        moves = play(engine, start, opening)
        uci = ["uci", "setoption name MultiPV value 2", "isready", "ucinewgame"]
        for i in range(0, len(moves) + 1, 7):
            uci.append("position %s moves %s" % (start, " ".join(moves[:i])))
            uci.append("go depth 2" if i % 14 else "go nodes 300 searchmoves %s" % " ".join(moves[i:i + 1]))
        uci.append("setoption name UCI_ShowWDL value true")
        uci.append("position %s moves %s" % (start, " ".join(moves)))
        uci += ["go depth 3", "isready", "stop", "d", "quit"]
        fen = start[4:] if start.startswith("fen ") else None
        xb = ["xboard", "protover 2", "new", "force", "post", "hard"]
        if fen:
            xb.append("setboard %s" % fen)
        for i, m in enumerate(moves):
            xb.append("usermove %s" % m if i % 2 else m)
            if i % 17 == 16:
                xb += ["sd 2", "go", "force", "undo", "remove" if i % 34 == 33 else "ping %d" % i]
        xb += ["sd 2", "go", "ping 99", "result 1/2-1/2 {game over}", "new", "quit"]
        with open(os.path.join(out, "uci-selfplay-%d.txt" % k), "w") as f:
            f.write("\n".join(uci) + "\n")
        with open(os.path.join(out, "xboard-selfplay-%d.txt" % k), "w") as f:
            f.write("\n".join(xb) + "\n")
        print("game %d: %d plies" % (k, len(moves)))


if __name__ == "__main__":
    main()

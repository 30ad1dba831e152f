#!/usr/bin/env python3
"""Chess960 games between two UCI engines, refereed by a third copy of Stockfish.

usage: python3 tools/measure/match960.py [--games N] [--tc BASE+INC] [--seed S] [--pgn FILE]
                                 [--referee PATH] ENGINE1 ENGINE2

The match runner of the other scripts plays standard chess only, so this script
plays Chess960: each pair of games starts from one random start position (of the first
fischer.epd-style back ranks, drawn from the 960 with the seed), colours reversed. Both
engines get `UCI_Chess960 true` and the moves so far as `position fen START moves ...`
with castling written king-takes-rook. Legality is not judged by either player: before
every move the referee (Stockfish with UCI_Chess960, `go perft 1`) lists the legal moves;
a move outside that list loses the game and is reported. The referee's `d` gives check,
mate and stalemate, and the FEN for threefold repetition; fifty moves and a 200-ply limit
end games as draws. Clocks are kept here (wall time from `go` to `bestmove`): an engine
over its time plus 100 ms loses on time. Prints one line per game and a summary:
"games N, +W -L =D (first engine), illegal moves K, time forfeits F".
"""
import argparse
import random
import subprocess
import sys
import time

BACK_RANKS = None


def start_position(n):
    """Scharnagl numbering 0..959 to a back rank (518 is the standard one)."""
    rank = [None] * 8
    n, b1 = divmod(n, 4)
    rank[2 * b1 + 1] = "B"
    n, b2 = divmod(n, 4)
    rank[2 * b2] = "B"
    n, q = divmod(n, 6)
    free = [i for i in range(8) if rank[i] is None]
    rank[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for piece, i in zip("RKR", free):
        rank[i] = piece
    white = "".join(rank)
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    files = "".join("ABCDEFGH"[i] for i in reversed(rooks))
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s%s - 0 1" % (white.lower(), white, files, files.lower())


class Uci:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.name = cmd
        self.send("uci")
        for line in self.until("uciok"):
            if line.startswith("id name "):
                self.name = line[8:]
        self.send("setoption name UCI_Chess960 value true")
        self.send("setoption name Hash value 16")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("%s ended" % self.name)
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        self.until("readyok")

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


class Referee(Uci):
    def legal_moves(self, start, moves):
        self.send("position fen %s moves %s" % (start, " ".join(moves)))
        self.send("go perft 1")
        lines = self.until("Nodes searched")
        return {l.split(":")[0] for l in lines if ":" in l and not l.startswith("Nodes")}

    def status(self, start, moves):
        self.send("position fen %s moves %s" % (start, " ".join(moves)))
        self.send("d")
        lines = self.until("Checkers")
        fen = next(l[5:] for l in lines if l.startswith("Fen: "))
        return fen, lines[-1].split(":", 1)[1].strip() != ""


def play(engines, start, tc, log):
    base, inc = tc
    clock = [base, base]
    moves, seen = [], {}
    referee = engines[2]
    for e in engines[:2]:
        e.send("ucinewgame")
        e.ready()
    while True:
        side = len(moves) % 2
        legal = referee.legal_moves(start, moves)
        fen, check = referee.status(start, moves)
        key = " ".join(fen.split()[:4])
        seen[key] = seen.get(key, 0) + 1
        if not legal:
            return ("0-1" if side == 0 else "1-0", "mate") if check else ("1/2-1/2", "stalemate"), moves
        if seen[key] >= 3:
            return ("1/2-1/2", "repetition"), moves
        if int(fen.split()[4]) >= 100:
            return ("1/2-1/2", "fifty moves"), moves
        if len(moves) >= 200:
            return ("1/2-1/2", "200 plies"), moves
        e = engines[side]
        e.send("position fen %s moves %s" % (start, " ".join(moves)))
        t0 = time.time()
        e.send("go wtime %d btime %d winc %d binc %d" % (clock[0], clock[1], inc, inc))
        line = e.until("bestmove")[-1]
        used = int((time.time() - t0) * 1000)
        clock[side] -= used
        if clock[side] < -100:
            return ("0-1" if side == 0 else "1-0", "time forfeit by %s" % e.name), moves
        clock[side] += inc
        move = line.split()[1]
        if move not in legal:
            return ("0-1" if side == 0 else "1-0", "illegal move %s by %s" % (move, e.name)), moves
        moves.append(move)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engines", nargs=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--pgn")
    ap.add_argument("--referee", default="/usr/games/stockfish")
    a = ap.parse_args()
    b, i = a.tc.split("+")
    tc = (int(float(b) * 1000), int(float(i) * 1000))
    rng = random.Random(a.seed)
    first, second = Uci(a.engines[0]), Uci(a.engines[1])
    referee = Referee(a.referee)
    score = {"win": 0, "loss": 0, "draw": 0}
    illegal = forfeits = 0
    pgn = open(a.pgn, "w") if a.pgn else None
    for g in range(a.games):
        if g % 2 == 0:
            number = rng.randrange(960)
            start = start_position(number)
        white, black = (first, second) if g % 2 == 0 else (second, first)
        (result, why), moves = play([white, black, referee], start, tc, None)
        illegal += why.startswith("illegal")
        forfeits += why.startswith("time")
        first_white = g % 2 == 0
        if result == "1/2-1/2":
            score["draw"] += 1
        elif (result == "1-0") == first_white:
            score["win"] += 1
        else:
            score["loss"] += 1
        print("game %d: position %d, %s - %s: %s (%s, %d plies)" % (g + 1, number, white.name, black.name,
                                                                   result, why, len(moves)), flush=True)
        if pgn:
            pgn.write('[White "%s"]\n[Black "%s"]\n[Result "%s"]\n[FEN "%s"]\n[SetUp "1"]\n'
                      '[Variant "fischerandom"]\n[Termination "%s"]\n\n%s %s\n\n'
                      % (white.name, black.name, result, start, why, " ".join(moves), result))
    print("games %d, +%d -%d =%d (first engine), illegal moves %d, time forfeits %d"
          % (a.games, score["win"], score["loss"], score["draw"], illegal, forfeits))
    for e in (first, second, referee):
        e.quit()
    return 0 if not illegal and not forfeits else 1


if __name__ == "__main__":
    sys.exit(main())

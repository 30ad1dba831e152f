#!/usr/bin/env python3
"""The learning benchmarks' script (tools/measure/learning-bench.py) without playing a
match: its statistics (pairs, quarters, Elo and error), its reading of the match tool's
PGN, and the learning file it writes for the cost benchmark, which the engine must read
as intact with every record.

usage: python3 tests/test_learning_bench.py ENGINE
"""
import importlib.util
import os
import subprocess
import sys

import testkit
from testkit import check, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TMP = testkit.temp_dir("learning-bench")
spec = importlib.util.spec_from_file_location(
    "learning_bench", os.path.join(testkit.ROOT, "tools", "measure", "learning-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


@test
def quarters_take_whole_pairs_in_order():
    # 16 games: the engine wins the odd games of the first half and every game of the last
    # quarter; game 6 is missing (its pair is left out).
    scores = {g: (1.0 if g % 2 else 0.0) for g in range(1, 9)}
    scores.update({g: 1.0 for g in range(13, 17)})
    scores.update({9: 0.5, 10: 0.5, 11: 0.5, 12: 0.5})
    del scores[6]
    qs = bench.quarters(scores, 16)
    check([len(q) for q in qs] == [2, 1, 2, 2], qs)
    check(qs[0] == [0.5, 0.5] and qs[2] == [0.5, 0.5] and qs[3] == [1.0, 1.0], qs)
    check(len(bench.all_pairs(scores, 16)) == 7, bench.all_pairs(scores, 16))


@test
def rate_gives_elo_and_a_symmetric_error():
    mean, se, elo, half = bench.rate([0.5, 1.0, 0.5, 0.0, 1.0, 0.5, 0.75, 0.25])
    check(abs(mean - 0.5625) < 1e-9, mean)
    check(abs(elo - bench.elo_of(0.5625)) < 1e-9 and 40 < elo < 50, elo)
    check(half > 0 and abs(bench.elo_of(0.5) - 0) < 1e-9, half)
    check(bench.rate([]) is None, "no pairs")


@test
def scores_are_read_from_either_colour():
    pgn = os.path.join(TMP, "games.pgn")
    with open(pgn, "w") as f:
        for rnd, white, black, result in [(1, "saavedra", "opp", "1-0"), (2, "opp", "saavedra", "1-0"),
                                          (3, "saavedra", "opp", "1/2-1/2"), (4, "opp", "saavedra", "*")]:
            f.write('[Event "t"]\r\n[Round "%d"]\r\n[White "%s"]\r\n[Black "%s"]\r\n[Result "%s"]\r\n\r\n1. e4 %s\r\n\r\n'
                    % (rnd, white, black, result, result))
    check(bench.engine_scores(pgn, "saavedra") == {1: 1.0, 2: 0.0, 3: 0.5}, bench.engine_scores(pgn, "saavedra"))


@test
def a_loss_repeating_an_earlier_one_is_counted():
    # Games 1 and 3: the engine (White) loses the same line after the same opening; game 5
    # loses it with another continuation; game 2 (Black) loses the same moves as Black.
    pgn = os.path.join(TMP, "lines.pgn")
    games = [(1, "saavedra", "opp", "0-1", "e5 2. Nf3 Nc6 3. Bb5"), (2, "opp", "saavedra", "1-0", "e5 2. Nf3 Nc6 3. Bb5"),
             (3, "saavedra", "opp", "0-1", "e5 2. Nf3 Nc6 3. Bb5"), (4, "opp", "saavedra", "0-1", "c5 2. Nf3"),
             (5, "saavedra", "opp", "0-1", "e5 2. Nc3 Nc6 3. Bb5")]
    with open(pgn, "w") as f:
        for rnd, white, black, result, rest in games:
            f.write('[Round "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "%s"]\n\n1. e4 {book} 1... %s {+0.10/12 0.1s, '
                    'White resigns} %s\n\n' % (rnd, white, black, result, rest, result))
    lines = bench.played_lines(pgn, "saavedra")
    check(lines[1][:2] == ("w", "e4") and lines[1][2].startswith("e5 Nf3 Nc6"), lines[1])
    check(bench.repeated_losses(lines) == (4, 1), bench.repeated_losses(lines))


@test
def learning_lines_are_counted_from_the_protocol_log():
    log = os.path.join(TMP, "protocol.log")
    with open(log, "w") as f:
        f.write("12:00:01 saavedra> info string learned positions hit 3 times\n"
                "12:00:02 saavedra> info string learned positions hit 2 times\n"
                "12:00:03 saavedra> info string book move e7e5: from the learning file: won 1, drew 0, lost 0 games here\n"
                "12:00:04 saavedra> info string learned: f2f3 counts 50 cp less (won 0, drew 0, lost 1 games here)\n"
                "12:00:05 saavedra> info string learned: not searching g2g4 (won 0, drew 0, lost 2 games here)\n"
                "12:00:06 ethereal> info depth 12 score cp 30 pv e2e4\n")
    counts = bench.log_counts(log)
    check(counts == {"hits": 5, "searches": 2, "replays": 1, "left_out": 2}, str(counts))


def fake_arm(name):
    """An arm's folder, a stand-in engine file (its bytes are the build) and the engine's
    match arguments with the arm's learning file."""
    arm = os.path.join(TMP, "arm-" + name)
    os.makedirs(arm, exist_ok=True)
    engine = os.path.join(TMP, "fake-engine-" + name)
    with open(engine, "w") as f:
        f.write("build 1")
    learn = os.path.join(arm, "learn.lrn")
    return arm, engine, learn, bench.saavedra(engine, "saavedra", True, learn, False, 16)


@test
def a_finished_arm_is_reused_only_with_the_same_set_up():
    arm, engine, learn, first = fake_arm("on")
    args = ["--each", "tc=5+0.05"]
    with open(os.path.join(arm, "games.pgn"), "w") as f:
        f.write('[Round "1"]\n[White "saavedra"]\n[Black "opp"]\n[Result "1-0"]\n\n1. e4 1-0\n\n')
    cmd = lambda: ["node", "match.mjs"] + first + ["--engine", "cmd=" + engine] + args + [
        "--games", "2", "--pgnout", os.path.join(arm, "games.pgn"), "--log", os.path.join(arm, "protocol.log"),
        "--ratinginterval", "50"]
    key = bench.run_key(cmd(), arm)
    counts = {"hits": 4, "searches": 2, "replays": 0, "left_out": 1}
    bench.mark_finished(arm, key, counts)
    check(bench.finished_run(arm, key) == counts, "the same set-up is reused")
    # The arm's own learning file changes as it plays: named, not read.
    with open(learn, "w") as f:
        f.write("learned")
    check(bench.run_key(cmd(), arm) == key, "the arm's learning file is not part of the key")
    # Reused without the match tool: no game is played.
    os.environ["SAAVEDRA_MATCH"] = os.path.join(TMP, "no-match-tool")
    pgn, got = bench.play(arm, first, ["--engine", "cmd=" + engine], args, 2, "on", scratch=[learn])
    check(got == counts and os.path.exists(learn) and os.path.exists(pgn), "reused: %s" % got)
    # Another engine build, another clock, a damaged record or a lost PGN: played again.
    with open(engine, "w") as f:
        f.write("build 2")
    check(bench.finished_run(arm, bench.run_key(cmd(), arm)) is None, "a rebuilt engine is played again")
    with open(engine, "w") as f:
        f.write("build 1")
    args[1] = "tc=10+0.1"
    check(bench.finished_run(arm, bench.run_key(cmd(), arm)) is None, "another clock is played again")
    args[1] = "tc=5+0.05"
    check(bench.finished_run(arm, bench.run_key(cmd(), arm)) == counts, "back to the same set-up")
    with open(os.path.join(arm, "finished.json"), "w") as f:
        f.write('{"key": "%s", "cou' % key)
    check(bench.finished_run(arm, key) is None, "a truncated record is not trusted")
    bench.mark_finished(arm, key, counts)
    os.unlink(os.path.join(arm, "games.pgn"))
    check(bench.finished_run(arm, key) is None, "no games, nothing to reuse")


@test
def a_run_stopped_between_parts_goes_on_from_the_last_whole_part():
    arm, engine, learn, first = fake_arm("parts")
    played, stop_at = [], [4]

    def fake_match(cmd, out, label, offset, games, start, first_game):
        # Stands in for the match tool: games of the part in order, one learned-position
        # line in the log, and the learning file grown by the part's games.
        n = int(cmd[cmd.index("--games") + 1])
        with open(learn, "a") as f:
            f.write("part from %d\n" % (offset + 1))
        if offset == stop_at[0]:
            raise KeyboardInterrupt  # stopped in the middle of this part
        played.append(offset)
        with open(cmd[cmd.index("--pgnout") + 1], "w") as f:
            for g in range(1, n + 1):
                white, black = ("saavedra", "opp") if g % 2 else ("opp", "saavedra")
                f.write('[Round "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
                        % (g, white, black))
        with open(cmd[cmd.index("--log") + 1], "w") as f:
            f.write("saavedra> info string learned positions hit 3 times\n")

    saved = bench.run_match
    bench.run_match = fake_match
    try:
        try:
            bench.play(arm, first, ["--engine", "cmd=" + engine], [], 8, "on", scratch=[learn], chunk=2)
            check(False, "the stop went unnoticed")
        except KeyboardInterrupt:
            pass
        check(played == [0, 2], "parts played before the stop: %s" % played)
        stop_at[0] = -1
        pgn, counts = bench.play(arm, first, ["--engine", "cmd=" + engine], [], 8, "on", scratch=[learn], chunk=2)
    finally:
        bench.run_match = saved
    check(played == [0, 2, 4, 6], "the run went on from game 5: %s" % played)
    with open(learn) as f:
        check(f.read() == "".join("part from %d\n" % g for g in (1, 3, 5, 7)),
              "the learning file is the stopped part's start, then the rest")
    scores = bench.engine_scores(pgn, "saavedra")
    check(sorted(scores) == list(range(1, 9)) and scores[1] == 1.0 and scores[8] == 0.0, str(scores))
    check(counts["hits"] == 12 and counts["searches"] == 4, "counts of the four parts: %s" % counts)
    check(sorted(os.listdir(arm)) == ["command.txt", "finished.json", "games.pgn", "learn.lrn", "match.txt"],
          "part files removed: %s" % sorted(os.listdir(arm)))
    # Finished: reused as a whole, nothing played.
    bench.run_match = None
    try:
        _, again = bench.play(arm, first, ["--engine", "cmd=" + engine], [], 8, "on", scratch=[learn], chunk=2)
    finally:
        bench.run_match = saved
    check(again == counts, "the finished run is reused")


@test
def opponent_clock_replaces_the_common_one_for_the_opponent_only():
    class Args:
        opponent = "/usr/games/ethereal-chess"
        opponent_book = None
        opponent_tc = None
        hash = 16
        tc = "5+0.05"
        concurrency = 2
    a = Args()
    plain = bench.opponent_args(a, TMP)
    check(not any(x.startswith("tc=") for x in plain), plain)
    check(bench.opponent_label(a) == "ethereal-chess", bench.opponent_label(a))
    a.opponent_tc = "10+0.1"
    odds = bench.opponent_args(a, TMP)
    # The match tool takes an engine's own tc over --each's: it must follow the engine.
    check(odds[:len(plain)] == plain and odds[len(plain):] == ["tc=10+0.1"], odds)
    check("tc=5+0.05" in bench.common_match_args(a), bench.common_match_args(a))
    check(bench.opponent_label(a) == "ethereal-chess at 10+0.1", bench.opponent_label(a))


@test
def book_benchmark_names_the_book_for_the_engine():
    # A copied engine looks for BookFile beside itself: the run must name the book.
    class Args:
        opponent_book = os.path.join(TMP, "opponent.bin")
        book = os.path.join(TMP, "saavedra-book.bin")
        games = 400
        tc = "5+0.05"
        opponent = "/usr/games/ethereal-chess"
        opponent_tc = None
    seen = {}
    saved_arms, saved_program = bench.run_arms, bench.program
    bench.run_arms = lambda a, out, first_extra, *rest: seen.setdefault("first", first_extra)
    bench.program = lambda name: "/bin/true"
    try:
        bench.book(Args(), TMP)
    finally:
        bench.run_arms, bench.program = saved_arms, saved_program
    check(seen.get("first") == ["option.BookFile=" + Args.book], str(seen))


@test
def cost_file_is_read_by_the_engine_with_every_record():
    path = os.path.join(TMP, "learned.lrn")
    bench.learning_file_with(path, ENGINE, 500, 7)
    out = subprocess.run([ENGINE, "learn", path], capture_output=True, text=True, timeout=60).stdout
    first = out.splitlines()[0]
    check("intact" in first and " 500 positions" in first, first)


testkit.finish()

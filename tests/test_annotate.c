/* annotate's marks and summary (commands/annotate_stats.h), one game through the engine
 * (annotate_game.h) and the PGN it writes read back (annotate_pgn.h, formats/pgn.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/notation.h"
#include "commands/annotate_game.h"
#include "commands/annotate_pgn.h"
#include "commands/annotate_stats.h"
#include "eval/evaluate.h"
#include "eval/wdl.h"
#include "formats/pgn.h"
#include "search/search.h"
#include "test.h"

TEST(annotate_marks_by_expected_score_drop)
{
    CHECK_EQ(annotate_mark(0.0), MARK_NONE);
    CHECK_EQ(annotate_mark(0.099), MARK_NONE);
    CHECK_EQ(annotate_mark(0.10), MARK_INACCURACY);
    CHECK_EQ(annotate_mark(0.199), MARK_INACCURACY);
    CHECK_EQ(annotate_mark(0.20), MARK_MISTAKE);
    CHECK_EQ(annotate_mark(0.30), MARK_BLUNDER);
    CHECK_EQ(annotate_mark(1.0), MARK_BLUNDER);
    CHECK_STR_EQ(annotate_mark_symbol(MARK_BLUNDER), "??");
    CHECK_STR_EQ(annotate_mark_symbol(MARK_INACCURACY), "?!");
    /* A mate for the mover is a sure win, one against him a sure loss. */
    CHECK(annotate_expected(VALUE_MATE - 5, 10) == 1.0);
    CHECK(annotate_expected(-VALUE_MATE + 4, 10) == 0.0);
    CHECK_EQ(annotate_cp(VALUE_MATE - 5), ANNOTATE_CP_CAP);
    CHECK_EQ(annotate_cp_loss(-30, 40), 0); /* a move better than the best found loses nothing */
}

TEST(annotate_summary_hand_computed)
{
    /* Three moves of one side:
     *   mate in 3 thrown into being mated: drop 1.0 (blunder), loss 1000 - -1000 = 2000,
     *     accuracy 103.1668 e^-4.354 - 3.1669 < 0, so 0;
     *   +0.50 kept at +0.50: no drop, no loss, accuracy 103.1668 - 3.1669 = 99.9999;
     *   +2.50 to -3.50 with 40 of material: loss 600, the drop from the model.
     * ACPL = (2000 + 0 + 600) / 3 = 866.67. */
    SideSummary s = {0};
    CHECK_EQ(side_summary_add(&s, VALUE_MATE - 5, 12, -VALUE_MATE + 4, 12), MARK_BLUNDER);
    CHECK_EQ(side_summary_add(&s, 50, 40, 50, 40), MARK_NONE);
    Wdl a = wdl_from_cp(250, 40), b = wdl_from_cp(-350, 40);
    double ea = (a.win + a.draw / 2.0) / 1000, eb = (b.win + b.draw / 2.0) / 1000;
    double third = 103.1668 * exp(-0.04354 * (ea - eb) * 100) - 3.1669;
    if (third < 0)
        third = 0;
    CHECK(ea - eb >= 0.30); /* the model calls this one lost from a won game too */
    CHECK_EQ(side_summary_add(&s, 250, 40, -350, 40), MARK_BLUNDER);
    CHECK_EQ(s.moves, 3);
    CHECK_EQ(s.blunders, 2);
    CHECK_EQ(s.mistakes + s.inaccuracies, 0);
    CHECK_EQ(s.cp_loss, 2600);
    CHECK_MSG(fabs(side_summary_acpl(&s) - 2600.0 / 3) < 1e-9, "acpl %f", side_summary_acpl(&s));
    double want = (0 + 99.9999 + third) / 3;
    CHECK_MSG(fabs(side_summary_accuracy(&s) - want) < 1e-6, "accuracy %f, want %f", side_summary_accuracy(&s), want);
    SideSummary none = {0};
    CHECK(side_summary_acpl(&none) == 0 && side_summary_accuracy(&none) == 0);
}

/* 3...Qg5?? drops the queen to 4.Nxg5. */
static const char *const BLUNDER_GAME[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "d8g5", "f3g5", "c6d4"};

TEST(annotate_game_marks_the_queen_blunder_and_reads_back)
{
    eval_init();
    search_init();
    Engine *e = engine_new();
    if (!CHECK(e != NULL))
        return;
    AnnotatedGame *g = calloc(1, sizeof *g);
    if (!CHECK(g != NULL)) {
        engine_free(e);
        return;
    }
    char err[256];
    position_from_fen(&g->start, START_FEN, err, sizeof err, NULL);
    Position walk = g->start;
    g->plies = (int)(sizeof BLUNDER_GAME / sizeof *BLUNDER_GAME);
    for (int i = 0; i < g->plies; i++) {
        g->moves[i].move = move_from_uci(&walk, BLUNDER_GAME[i]);
        make_move(&walk, g->moves[i].move);
    }
    AnnotateLimits lim = {.depth = 7, .white = true, .black = true, .from_move = 1};
    CHECK_MSG(annotate_game(e, g, &lim, NULL, err, sizeof err), "%s", err);
    AnnotatedMove *qg5 = &g->moves[5];
    CHECK_EQ(qg5->mark, MARK_BLUNDER);
    CHECK(qg5->pv_length > 0 && qg5->pv[0] != qg5->move);
    CHECK_EQ(g->side[BLACK].blunders, 1);
    CHECK_EQ(g->side[WHITE].blunders + g->side[WHITE].mistakes, 0);
    CHECK(g->white_score[6] > 500); /* after Qg5 White wins a queen */

    /* The PGN written reads back: same moves, an eval comment after each, ?? on Qg5 and a
     * variation beside it. */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    const char *tags = "[Event \"t\"]\n[Annotator \"someone\"]\n[Result \"*\"]\n";
    annotate_write_game(out, tags, strlen(tags), g, "Saavedra test", "*", NULL);
    fclose(out);
    CHECK(strstr(text, "[Event \"t\"]\n") == text);
    CHECK(!strstr(text, "someone") && strstr(text, "[Annotator \"Saavedra test\"]"));
    for (const char *c = strstr(text, "[%eval"); c; c = strstr(c + 1, "[%eval"))
        CHECK_MSG(strcspn(c, "]") < strcspn(c, "\n"), "an eval command cut by a line end: %.20s", c);
    FILE *in = fmemopen(text, len, "r");
    PgnReader *r = pgn_open_stream(in, "annotated", NULL, NULL);
    int moves = 0, evals = 0, blunder_nag = 0, variations = 0, ended = 0;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF) {
        if (it->event == PGN_MOVE && it->depth == 0)
            CHECK(moves < g->plies && it->move == g->moves[moves++].move);
        else if (it->event == PGN_COMMENT && it->depth == 0)
            evals += strstr(it->text, "[%eval ") != NULL;
        else if (it->event == PGN_NAG && it->depth == 0)
            blunder_nag += it->nag == 4 && moves == 6;
        else if (it->event == PGN_VARIATION_START)
            variations++;
        ended += it->event == PGN_GAME_END;
    }
    CHECK_EQ(moves, g->plies);
    CHECK_EQ(evals, g->plies);
    CHECK_EQ(blunder_nag, 1);
    CHECK(variations >= 1);
    CHECK_EQ(ended, 1);
    pgn_close(r);
    fclose(in);
    free(text);
    free(g);
    engine_free(e);
}

TEST(annotate_eval_text_convention)
{
    char buf[16];
    annotate_eval_text(35, buf, sizeof buf);
    CHECK_STR_EQ(buf, "0.35");
    annotate_eval_text(-120, buf, sizeof buf);
    CHECK_STR_EQ(buf, "-1.20");
    annotate_eval_text(-(VALUE_MATE - 5), buf, sizeof buf);
    CHECK_STR_EQ(buf, "#-2");
    annotate_eval_text(VALUE_MATE - 5, buf, sizeof buf);
    CHECK_STR_EQ(buf, "#3");
}

/* Tests of the singular extensions' verdict (search/singular.h) and of the static
 * evaluation's correction history (search/correction.h): it starts at
 * zero, moves toward what searches found by more after deeper ones, stays bounded, is kept
 * per side to move, and carries over to positions with the same pawns or material. */
#include <stdlib.h>

#include "search/correction.h"
#include "search/singular.h"
#include "test.h"

static bool set_fen(Position *pos, const char *fen)
{
    char err[160];
    bool ok = position_from_fen(pos, fen, err, sizeof err, NULL);
    CHECK_MSG(ok, "FEN %s: %s", fen, err);
    return ok;
}

TEST(correction_moves_toward_search_results)
{
    History *h = history_new();
    Position pos;
    if (!CHECK(h != NULL) || !set_fen(&pos, "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4")) {
        history_free(h);
        return;
    }
    CHECK_EQ(correction_value(h, &pos), 0);
    /* The searches keep finding 100 cp more than the evaluation said. */
    int last = 0;
    for (int i = 0; i < 200; i++) {
        correction_update(h, &pos, 10, 100 + correction_value(h, &pos), correction_value(h, &pos));
        int now = correction_value(h, &pos);
        CHECK_MSG(now >= last, "update %d went back from %d to %d", i, last, now);
        last = now;
    }
    CHECK_MSG(last > 20, "after 200 updates of +100 cp the correction is only %d", last);
    CHECK_MSG(last <= CORRECTION_BOUND, "the correction %d exceeds its bound", last);

    /* Deeper searches move it further than shallow ones. */
    History *shallow = history_new(), *deep = history_new();
    if (CHECK(shallow && deep)) {
        for (int i = 0; i < 3; i++) {
            correction_update(shallow, &pos, 1, -80, 0);
            correction_update(deep, &pos, 12, -80, 0);
        }
        CHECK_MSG(correction_value(deep, &pos) < correction_value(shallow, &pos) && correction_value(shallow, &pos) <= 0,
                  "deep %d, shallow %d", correction_value(deep, &pos), correction_value(shallow, &pos));
    }
    history_free(shallow);
    history_free(deep);

    /* history_clear (a new game) forgets it. */
    history_clear(h);
    CHECK_EQ(correction_value(h, &pos), 0);
    history_free(h);
}

TEST(correction_is_per_side_and_shared_by_structure)
{
    History *h = history_new();
    Position a, same_pawns_black, same_structure, other_pawns;
    if (!CHECK(h != NULL)
        || !set_fen(&a, "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4")
        /* the same pieces and pawns with Black to move */
        || !set_fen(&same_pawns_black, "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4")
        /* pieces elsewhere, the same pawns and material, White to move */
        || !set_fen(&same_structure, "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5")
        /* another pawn structure and another material balance */
        || !set_fen(&other_pawns, "r1bqkb1r/pp3ppp/2n2n2/2pp4/8/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 6")) {
        history_free(h);
        return;
    }
    for (int i = 0; i < 50; i++)
        correction_update(h, &a, 10, 200, 0);
    int corrected = correction_value(h, &a);
    CHECK_MSG(corrected > 20, "correction %d", corrected);
    CHECK_EQ(correction_value(h, &same_pawns_black), 0);
    CHECK_EQ(correction_value(h, &same_structure), corrected);
    CHECK_EQ(correction_value(h, &other_pawns), 0);
    history_free(h);
}

TEST(singular_verdicts)
{
    /* hash score 100 at depth 10: singular_beta 90 (margin 1 per ply) */
    const int sb = 100 - SINGULAR_MARGIN * 10, beta = 50;
    CHECK_EQ(singular_verdict(sb - 1, sb, beta, 100, true, 0), 1);     /* PV node: never double */
    CHECK_EQ(singular_verdict(sb - 1, sb, beta, 100, false, 0), 1);    /* only a little below */
    CHECK_EQ(singular_verdict(sb - SINGULAR_DOUBLE_MARGIN - 1, sb, beta, 100, false, 0), 2);
    CHECK_EQ(singular_verdict(sb - SINGULAR_DOUBLE_MARGIN - 1, sb, beta, 100, false, SINGULAR_DOUBLE_LIMIT), 1);
    CHECK_EQ(singular_verdict(sb, sb, beta, 100, false, 0), SINGULAR_MULTI_CUT); /* sb >= beta */
    CHECK_EQ(singular_verdict(sb, sb, 95, 100, false, 0), -1);       /* only the hash bound beat beta */
    CHECK_EQ(singular_verdict(sb, sb, 120, 100, false, 0), 0);       /* nothing beat beta */
}

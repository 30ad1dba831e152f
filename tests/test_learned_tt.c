/* Learned transposition-table entries (learning file): protected during the search they
 * were loaded for, ordinary afterwards; their move comes back decoded in the probed
 * position. */
#include <stdlib.h>

#include "board/movegen.h"
#include "formats/movecode.h"
#include "movecode_check.h"
#include "search/transposition.h"
#include "test.h"

TEST(tt_learned_entry_protected_for_one_search)
{
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    /* key ^ (i << 1) lands in the same bucket: the bucket is the high bits of key * count. */
    Key learned = 0x0123456789ABCDEFULL;
    tt_store_learned(&tt, learned, 0xC1, 250, 14);
    tt_new_search(&tt); /* the search the entry was loaded for */
    /* Many deep stores into the same bucket: the learned entry survives them. */
    for (int i = 1; i <= 16; i++)
        tt_store(&tt, learned ^ ((Key)i << 1), 0, MOVE_NONE, 10, 0, 60, BOUND_EXACT);
    TTData d;
    CHECK(tt_probe(&tt, learned, 0, &d));
    CHECK(d.learned);
    CHECK(tt_cuts_at_pv(&d));
    CHECK_EQ(d.move, MOVE_NONE); /* a move code names a move only in its position */
    CHECK_EQ(d.score, 250);
    CHECK_EQ(d.depth, 14);
    CHECK_EQ(d.eval, VALUE_NONE);
    CHECK_EQ(d.bound, BOUND_EXACT);
    /* The same position: a shallower or inexact result does not replace it, a deeper
     * exact one does. */
    tt_store(&tt, learned, 0, MOVE_NONE, -5, 0, 10, BOUND_EXACT);
    tt_store(&tt, learned, 0, MOVE_NONE, -5, 0, 20, BOUND_LOWER);
    CHECK(tt_probe(&tt, learned, 0, &d) && d.learned && d.score == 250);
    tt_store(&tt, learned, 0, MOVE_NONE, -5, 0, 20, BOUND_EXACT);
    CHECK(tt_probe(&tt, learned, 0, &d) && !d.learned && d.score == -5 && d.move == MOVE_NONE);
    CHECK(!tt_cuts_at_pv(&d));
    /* Next search: an unprotected learned entry is an ordinary victim. */
    tt_store_learned(&tt, learned, 0x10, 100, 3);
    tt_new_search(&tt);
    tt_new_search(&tt);
    for (int i = 1; i <= 16; i++)
        tt_store(&tt, learned ^ ((Key)i << 1), 0, MOVE_NONE, 10, 0, 60, BOUND_EXACT);
    CHECK(!tt_probe(&tt, learned, 0, &d) || !d.learned);
    tt_free(&tt);
}

/* Each legal move of a position stored as a learned entry's move comes back from the
 * probe in that position as that move; an entry stored without a move (code -1) as none.
 * An ordinary entry's move is given back as stored. */
TEST(tt_learned_move_decodes_in_the_probed_position)
{
    Position *pos = test_position_new("r3k2r/pPp2ppp/8/3pP3/8/2N5/P1PP1PPP/R3K2R w KQkq d6 0 1");
    TranspositionTable tt;
    if (!pos || !CHECK(tt_init(&tt, 1))) {
        free(pos);
        return;
    }
    MoveList list;
    generate_legal(pos, &list);
    CHECK(list.count > 30);
    TTData d;
    Key key = pos_key(pos);
    for (int i = 0; i < list.count; i++) {
        tt_store_learned(&tt, key, movecode_encode(pos, list.moves[i]), 0, 10);
        if (CHECK(tt_probe_position(&tt, pos, 0, &d) && d.learned))
            CHECK_EQ(d.move, list.moves[i]);
    }
    tt_store_learned(&tt, key, -1, 0, 10);
    if (CHECK(tt_probe_position(&tt, pos, 0, &d) && d.learned))
        CHECK_EQ(d.move, MOVE_NONE);
    tt_new_search(&tt);
    tt_new_search(&tt); /* the learned entry is no longer protected */
    tt_store(&tt, key, 0, list.moves[3], 40, 12, 20, BOUND_EXACT);
    if (CHECK(tt_probe_position(&tt, pos, 0, &d) && !d.learned))
        CHECK_EQ(d.move, list.moves[3]);
    tt_free(&tt);
    free(pos);
}

/* KPK bitbase tests: hand-verified positions (their verdicts also confirmed with the
 * Syzygy tables; tools/stress/kpk_syzygy_check.c compares the whole bitbase with them), the rook-pawn corner draw, and agreement
 * with an independent depth-limited search that plays the real moves (including every
 * promotion) with the legal move generator. */
#include <stdio.h>
#include <string.h>

#include "board/fen.h"
#include "eval/endgame.h"
#include "eval/evaluate.h"
#include "eval/kpk.h"
#include "board/movegen.h"
#include "test.h"

static bool setup(Position *pos, const char *fen)
{
    char err[160];
    return CHECK_MSG(position_from_fen(pos, fen, err, sizeof err, NULL), "%s: %s", fen, err);
}

/* Bitbase verdict for a KPK position given as FEN (-1 if not KPK). */
static int probe_fen(const char *fen)
{
    static Position pos;
    if (!setup(&pos, fen))
        return -1;
    Color strong = pieces_cp(&pos, WHITE, PAWN) ? WHITE : BLACK;
    return kpk_probe(strong, king_square(&pos, strong), lsb(pieces_p(&pos, PAWN)),
                     king_square(&pos, !strong), pos.side);
}

TEST(kpk_hand_verified_positions)
{
    eval_init();
    /* King on the sixth in front of its pawn wins whoever moves. */
    CHECK_EQ(probe_fen("3k4/8/3K4/3P4/8/8/8/8 w - - 0 1"), 1);
    CHECK_EQ(probe_fen("3k4/8/3K4/3P4/8/8/8/8 b - - 0 1"), 1);
    /* King on the fifth, pawn right behind: wins only with the opposition. */
    CHECK_EQ(probe_fen("8/3k4/8/3K4/3P4/8/8/8 w - - 0 1"), 0);
    CHECK_EQ(probe_fen("8/3k4/8/3K4/3P4/8/8/8 b - - 0 1"), 1);
    /* Rule of the square: outside it the pawn runs, one tempo later the king catches it
     * (the white king is too far to help), unless the white king escorts the pawn. */
    CHECK_EQ(probe_fen("8/8/7k/8/2P5/8/8/7K w - - 0 1"), 1);
    CHECK_EQ(probe_fen("8/8/7k/8/2P5/8/8/7K b - - 0 1"), 0);
    CHECK_EQ(probe_fen("8/8/7k/8/2P5/8/8/K7 b - - 0 1"), 1);
    /* The undefended pawn falls. */
    CHECK_EQ(probe_fen("8/8/8/8/3kP3/8/8/K7 b - - 0 1"), 0);
    /* Same positions with colours reversed (tests the flip). */
    CHECK_EQ(probe_fen("8/8/8/8/3p4/3k4/8/3K4 b - - 0 1"), 1);
    CHECK_EQ(probe_fen("8/8/8/3p4/3k4/8/3K4/8 b - - 0 1"), 0);
    CHECK_EQ(probe_fen("8/8/8/3p4/3k4/8/3K4/8 w - - 0 1"), 1);
    /* Mirrored to the king side files (tests the a-d normalisation). */
    CHECK_EQ(probe_fen("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"), 1);
    CHECK_EQ(probe_fen("8/8/k7/8/5P2/8/8/7K w - - 0 1"), 1);
}

TEST(kpk_rook_pawn_corner_is_draw)
{
    eval_init();
    /* The defending king on the promotion square of a rook pawn: always a draw. */
    int checked = 0, wins = 0;
    for (int side = 0; side < 2; side++)
        for (int corner = 0; corner < 2; corner++) {
            Square bk = corner ? H8 : A8;
            int file = corner ? 7 : 0;
            for (int r = 1; r <= 6; r++)
                for (Square wk = 0; wk < SQUARE_NB; wk++) {
                    Square p = make_square(file, r);
                    if (wk == p || wk == bk || DISTANCE[wk][bk] <= 1)
                        continue;
                    if (side == WHITE && (PAWN_ATTACKS[WHITE][p] & square_bb(bk)))
                        continue; /* Black would be in check with White to move */
                    checked++;
                    wins += kpk_probe(WHITE, wk, p, bk, side);
                    /* The same for Black's pawn, board flipped. */
                    wins += kpk_probe(BLACK, wk ^ 56, p ^ 56, bk ^ 56, !side);
                }
        }
    CHECK_EQ(wins, 0);
    CHECK(checked > 1000);
}

/* ---- An independent search: +1 White (the pawn side) wins, -1 draw, 0 unknown ---- */

#define MEMO_SIZE (1u << 20)
typedef struct {
    Key key;
    int8_t value;
    int8_t depth; /* for unknown results: searched to this depth */
} MemoEntry;
static MemoEntry memo[MEMO_SIZE];

static int brute_force(Position *pos, int depth)
{
    Bitboard white_pieces = pieces_c(pos, WHITE) & ~pieces_p(pos, KING);
    if (!white_pieces)
        return -1; /* pawn gone */
    MoveList list;
    generate_legal(pos, &list);
    if (!(white_pieces & pieces_p(pos, PAWN))) {
        /* Just promoted, Black to move. KQK and KRK win unless the piece falls at once
         * or Black is stalemated; KBK and KNK are draws. */
        if (white_pieces & (pieces_p(pos, KNIGHT) | pieces_p(pos, BISHOP)))
            return -1;
        if (!list.count)
            return in_check(pos) ? 1 : -1;
        for (int i = 0; i < list.count; i++)
            if (square_bb(move_to(list.moves[i])) & white_pieces)
                return -1;
        return 1;
    }
    if (!list.count)
        return pos->side == BLACK && in_check(pos) ? 1 : -1;
    if (depth == 0)
        return 0;

    MemoEntry *e = &memo[pos_key(pos) & (MEMO_SIZE - 1)];
    if (e->key == pos_key(pos) && (e->value != 0 || e->depth >= depth))
        return e->value;

    int best = pos->side == WHITE ? -1 : 1;
    for (int i = 0; i < list.count; i++) {
        make_move(pos, list.moves[i]);
        int v = brute_force(pos, depth - 1);
        unmake_move(pos, list.moves[i]);
        if (pos->side == WHITE ? v > best : v < best)
            best = v;
        if (best == (pos->side == WHITE ? 1 : -1))
            break;
    }
    e->key = pos_key(pos);
    e->value = (int8_t)best;
    e->depth = (int8_t)depth;
    return best;
}

static void square_name(Square s, char *out)
{
    out[0] = (char)('a' + file_of(s));
    out[1] = (char)('1' + rank_of(s));
    out[2] = '\0';
}

TEST(kpk_agrees_with_search)
{
    eval_init();
    static Position pos;
    memset(memo, 0, sizeof memo);
    uint64_t seed = 0x12345678ULL;
    int resolved = 0, wins = 0, tried = 0;
    while (tried < 600) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        Square wk = (seed >> 20) & 63, bk = (seed >> 30) & 63;
        Square p = make_square((int)((seed >> 40) & 7), 1 + (int)((seed >> 44) % 6));
        Color stm = (seed >> 50) & 1;
        if (wk == bk || wk == p || bk == p || DISTANCE[wk][bk] <= 1)
            continue;
        if (stm == WHITE && (PAWN_ATTACKS[WHITE][p] & square_bb(bk)))
            continue;
        tried++;
        /* Build the FEN: board with three pieces. */
        char board[64];
        memset(board, 0, sizeof board);
        board[wk] = 'K', board[bk] = 'k', board[p] = 'P';
        char fen[100];
        fen_from_squares(board, stm, fen);
        if (!setup(&pos, fen))
            continue;
        int v = brute_force(&pos, 13);
        if (v == 0)
            continue;
        resolved++;
        wins += v == 1;
        bool bb = kpk_probe(WHITE, wk, p, bk, stm);
        char a[3], b[3], c[3];
        square_name(wk, a), square_name(p, b), square_name(bk, c);
        CHECK_MSG(bb == (v == 1), "%s (K%s P%s k%s): search says %s, bitbase %s", fen, a, b, c,
                  v == 1 ? "win" : "draw", bb ? "win" : "draw");
        /* The evaluation reports the same verdict from the side to move's view. */
        int e = evaluate(&pos, NULL) * (stm == WHITE ? 1 : -1);
        CHECK_MSG(v == 1 ? e > EVAL_KNOWN_WIN : e == 0, "%s: evaluate %d for a %s", fen, e, v == 1 ? "win" : "draw");
    }
    test_log("%d of %d random KPK positions resolved by search (%d wins)", resolved, tried, wins);
    CHECK_MSG(resolved >= 200 && wins >= 50 && resolved - wins >= 50, "only %d resolved (%d wins)", resolved, wins);
}

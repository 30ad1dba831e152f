/* KPK bitbase. Positions are normalised to White having the pawn on files a-d; each is
 * classified by repeated sweeps (a position is won for White to move when some move
 * reaches a won position, for Black to move when every move does; drawn in the dual
 * cases) until nothing changes, and what is still unknown is a draw. */
#include "eval/kpk.h"

#include <stdint.h>
#include <string.h>

#include "board/bitboard.h"

/* Index: side to move (1 bit), black king (6), white king (6), pawn (24 squares: files
 * a-d, ranks 2-7). */
#define KPK_SIZE (2 * 64 * 64 * 24)

enum { KPK_INVALID, KPK_UNKNOWN, KPK_DRAW, KPK_WIN };

static uint32_t KPK_WINS[KPK_SIZE / 32];

static unsigned kpk_index(Color stm, Square bk, Square wk, Square psq)
{
    unsigned pawn = (unsigned)((rank_of(psq) - 1) * 4 + file_of(psq));
    return (unsigned)stm | (unsigned)bk << 1 | (unsigned)wk << 7 | pawn << 13;
}

static void kpk_decode(unsigned idx, Color *stm, Square *bk, Square *wk, Square *psq)
{
    *stm = idx & 1;
    *bk = (idx >> 1) & 63;
    *wk = (idx >> 7) & 63;
    unsigned pawn = idx >> 13;
    *psq = make_square(pawn % 4, 1 + pawn / 4);
}

static uint8_t initial_class(unsigned idx)
{
    Color stm;
    Square bk, wk, psq;
    kpk_decode(idx, &stm, &bk, &wk, &psq);
    if (wk == bk || DISTANCE[wk][bk] <= 1 || wk == psq || bk == psq)
        return KPK_INVALID;
    if (stm == WHITE && (PAWN_ATTACKS[WHITE][psq] & square_bb(bk)))
        return KPK_INVALID; /* Black in check with White to move */
    if (stm == WHITE && rank_of(psq) == 6) {
        Square queen = psq + 8;
        /* Promotes and the new piece cannot be taken (a rook saves the rare stalemates). */
        if (wk != queen && bk != queen && (DISTANCE[bk][queen] > 1 || DISTANCE[wk][queen] == 1))
            return KPK_WIN;
    }
    if (stm == BLACK) {
        Bitboard moves = KING_ATTACKS[bk] & ~(KING_ATTACKS[wk] | PAWN_ATTACKS[WHITE][psq]);
        if (!moves)
            return KPK_DRAW; /* stalemate (a pawn alone cannot mate) */
        if (moves & square_bb(psq))
            return KPK_DRAW; /* the pawn falls */
    }
    return KPK_UNKNOWN;
}

/* One classification step for an unknown position from its successors' classes. */
static uint8_t classify(const uint8_t *db, unsigned idx)
{
    Color stm;
    Square bk, wk, psq;
    kpk_decode(idx, &stm, &bk, &wk, &psq);
    bool any_unknown = false;

    if (stm == WHITE) {
        Bitboard moves = KING_ATTACKS[wk] & ~KING_ATTACKS[bk] & ~square_bb(psq);
        while (moves) {
            uint8_t r = db[kpk_index(BLACK, bk, pop_lsb(&moves), psq)];
            if (r == KPK_WIN)
                return KPK_WIN;
            any_unknown |= r == KPK_UNKNOWN;
        }
        /* Pushes (promotions are settled by initial_class). */
        Square up = psq + 8;
        if (rank_of(psq) < 6 && up != wk && up != bk) {
            uint8_t r = db[kpk_index(BLACK, bk, wk, up)];
            if (r == KPK_WIN)
                return KPK_WIN;
            any_unknown |= r == KPK_UNKNOWN;
            Square up2 = up + 8;
            if (rank_of(psq) == 1 && up2 != wk && up2 != bk) {
                r = db[kpk_index(BLACK, bk, wk, up2)];
                if (r == KPK_WIN)
                    return KPK_WIN;
                any_unknown |= r == KPK_UNKNOWN;
            }
        }
        return any_unknown ? KPK_UNKNOWN : KPK_DRAW;
    }

    Bitboard moves = KING_ATTACKS[bk] & ~(KING_ATTACKS[wk] | PAWN_ATTACKS[WHITE][psq]);
    while (moves) {
        uint8_t r = db[kpk_index(WHITE, pop_lsb(&moves), wk, psq)];
        if (r == KPK_DRAW)
            return KPK_DRAW;
        any_unknown |= r == KPK_UNKNOWN;
    }
    return any_unknown ? KPK_UNKNOWN : KPK_WIN;
}

void kpk_init(void)
{
    static uint8_t db[KPK_SIZE]; /* scratch, only used here */
    static bool done = false;
    if (done)
        return;
    for (unsigned i = 0; i < KPK_SIZE; i++)
        db[i] = initial_class(i);
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < KPK_SIZE; i++)
            if (db[i] == KPK_UNKNOWN && (db[i] = classify(db, i)) != KPK_UNKNOWN)
                changed = true;
    }
    memset(KPK_WINS, 0, sizeof KPK_WINS);
    for (unsigned i = 0; i < KPK_SIZE; i++)
        if (db[i] == KPK_WIN)
            KPK_WINS[i / 32] |= 1u << (i % 32);
    done = true;
}

bool kpk_probe(Color strong, Square strong_king, Square pawn, Square weak_king, Color stm)
{
    if (strong == BLACK) { /* flip so that the pawn is White's */
        strong_king ^= 56;
        pawn ^= 56;
        weak_king ^= 56;
        stm = !stm;
    }
    if (file_of(pawn) >= 4) { /* mirror to files a-d */
        strong_king ^= 7;
        pawn ^= 7;
        weak_king ^= 7;
    }
    if (rank_of(pawn) < 1 || rank_of(pawn) > 6)
        return false;
    unsigned idx = kpk_index(stm, weak_king, strong_king, pawn);
    return (KPK_WINS[idx / 32] >> (idx % 32)) & 1;
}

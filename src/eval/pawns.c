/* Pawn structure evaluation and the pawn hash table. */
#include "eval/pawns.h"

#include <stdlib.h>
#include <string.h>

Bitboard FORWARD_FILE[COLOR_NB][SQUARE_NB];
Bitboard PASSED_SPAN[COLOR_NB][SQUARE_NB];
Bitboard ATTACK_SPAN[COLOR_NB][SQUARE_NB];
Bitboard FORWARD_RANKS[COLOR_NB][8];
Bitboard ADJACENT_FILES[8];

/* Stored keys are salted so that a zeroed entry never matches the pawnless key 0. */
#define KEY_SALT 0x9E3779B97F4A7C15ULL

void pawns_init(void)
{
    for (int f = 0; f < 8; f++)
        ADJACENT_FILES[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    for (int r = 0; r < 8; r++) {
        FORWARD_RANKS[WHITE][r] = FORWARD_RANKS[BLACK][r] = 0;
        for (int r2 = r + 1; r2 < 8; r2++)
            FORWARD_RANKS[WHITE][r] |= rank_bb(r2);
        for (int r2 = 0; r2 < r; r2++)
            FORWARD_RANKS[BLACK][r] |= rank_bb(r2);
    }
    for (Color c = WHITE; c <= BLACK; c++)
        for (Square s = 0; s < SQUARE_NB; s++) {
            Bitboard ahead = FORWARD_RANKS[c][rank_of(s)];
            FORWARD_FILE[c][s] = ahead & file_bb(file_of(s));
            ATTACK_SPAN[c][s] = ahead & ADJACENT_FILES[file_of(s)];
            PASSED_SPAN[c][s] = FORWARD_FILE[c][s] | ATTACK_SPAN[c][s];
        }
}

/* ---- The table ---- */

struct PawnTable {
    PawnEntry *entries;
    size_t mask;
};

#define PAWN_TABLE_ENTRIES (1u << 14)

PawnTable *pawn_table_new(void)
{
    PawnTable *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    t->entries = malloc(sizeof(PawnEntry) * PAWN_TABLE_ENTRIES);
    if (!t->entries) {
        free(t);
        return NULL;
    }
    t->mask = PAWN_TABLE_ENTRIES - 1;
    pawn_table_clear(t);
    return t;
}

void pawn_table_free(PawnTable *table)
{
    if (table) {
        free(table->entries);
        free(table);
    }
}

void pawn_table_clear(PawnTable *table)
{
    if (table)
        memset(table->entries, 0, sizeof(PawnEntry) * (table->mask + 1));
}

/* ---- Structure ---- */

static void evaluate_side(const Position *pos, PawnEntry *e, Color us TRACE_PARAM)
{
    const Color them = !us;
    const Bitboard ours = pieces_cp(pos, us, PAWN);
    const Bitboard theirs = pieces_cp(pos, them, PAWN);
    const EvalParams *w = &PARAMS;
    Score structure = 0, psqt = 0;
    Bitboard fill = ours;

    for (int i = 0; i < 6; i++) /* fill each pawn's file ahead of it */
        fill |= pawn_push_bb(us, fill);
    e->attacks[us] = pawn_attacks_bb(us, ours);
    e->attack_span[us] = pawn_attacks_bb(us, fill);
    e->passed[us] = 0;
    e->semiopen[us] = 0xFF;

    for (Bitboard b = ours; b;) {
        Square s = pop_lsb(&b);
        int f = file_of(s), r = relative_rank(us, s);
        Square stop = s + pawn_push(us);
        Bitboard opposed = theirs & FORWARD_FILE[us][s];
        Bitboard neighbours = ours & ADJACENT_FILES[f];
        Bitboard phalanx = neighbours & rank_bb(rank_of(s));
        Bitboard support = ours & PAWN_ATTACKS[them][s];
        bool doubled = (ours & FORWARD_FILE[us][s]) != 0;
        /* Backward: no neighbour level with or behind it, and it cannot advance safely. */
        bool backward = !(neighbours & ~FORWARD_RANKS[us][rank_of(s)])
                     && ((theirs & PAWN_ATTACKS[us][stop]) || (theirs & square_bb(stop)));

        e->semiopen[us] &= ~(1 << f);
        psqt += PSQT[make_piece(us, PAWN)][s];
        TRACE_SCORE(us, psqt[PAWN][relative_square(us, s) ^ 56], 1);

        if (!(theirs & PASSED_SPAN[us][s]) && !doubled) {
            e->passed[us] |= square_bb(s);
            structure += w->passed_rank[r];
            TRACE_SCORE(us, passed_rank[r], 1);
        }
        if (support | phalanx) {
            structure += w->pawn_connected[r] + w->pawn_supported * popcount(support);
            TRACE_SCORE(us, pawn_connected[r], 1);
            TRACE_SCORE(us, pawn_supported, popcount(support));
        } else if (!neighbours) {
            structure += w->pawn_isolated;
            TRACE_SCORE(us, pawn_isolated, 1);
            if (!opposed) {
                structure += w->pawn_weak_unopposed;
                TRACE_SCORE(us, pawn_weak_unopposed, 1);
            }
        } else if (backward) {
            structure += w->pawn_backward;
            TRACE_SCORE(us, pawn_backward, 1);
            if (!opposed) {
                structure += w->pawn_weak_unopposed;
                TRACE_SCORE(us, pawn_weak_unopposed, 1);
            }
        }
        if (doubled) {
            structure += w->pawn_doubled;
            TRACE_SCORE(us, pawn_doubled, 1);
        }
    }
    e->structure[us] = structure;
    e->psqt[us] = psqt;
}

PawnEntry *pawns_probe(const Position *pos, PawnTable *table, PawnEntry *scratch TRACE_PARAM)
{
    Key key = pos_state(pos)->pawn_key ^ KEY_SALT;
    PawnEntry *e = table ? &table->entries[key & table->mask] : scratch;
    if (table && e->key == key)
        return e;
    e->key = key;
    evaluate_side(pos, e, WHITE TRACE_ARG(trace));
    evaluate_side(pos, e, BLACK TRACE_ARG(trace));
    e->king_square[WHITE] = e->king_square[BLACK] = NO_SQUARE;
    return e;
}

/* ---- King shelter ---- */

/* The tuner build records into *cand when it is not NULL. */
#ifdef EVAL_TRACE
#define CANDIDATE_PARAM , ShelterCandidate *cand
#define CANDIDATE_ARG(x) , (x)
#else
#define CANDIDATE_PARAM
#define CANDIDATE_ARG(x)
#endif

static Score shelter_storm(const Position *pos, Color us, Square ksq CANDIDATE_PARAM)
{
    const Color them = !us;
    const EvalParams *w = &PARAMS;
    Bitboard near = pieces_p(pos, PAWN) & ~FORWARD_RANKS[them][rank_of(ksq)];
    Bitboard ours = near & pieces_c(pos, us), theirs = near & pieces_c(pos, them);
    int center = file_of(ksq) < 1 ? 1 : file_of(ksq) > 6 ? 6 : file_of(ksq);
    Score s = 0;

    for (int f = center - 1; f <= center + 1; f++) {
        Bitboard bo = ours & file_bb(f), bt = theirs & file_bb(f);
        int our_rank = bo ? relative_rank(us, rearmost_square(us, bo)) : 0;
        int their_rank = bt ? relative_rank(us, rearmost_square(us, bt)) : 0;
        int d = f < 7 - f ? f : 7 - f;
        s += w->king_shelter[d][our_rank];
        bool blocked = our_rank && our_rank == their_rank - 1;
        if (blocked)
            s += w->king_storm_blocked[their_rank];
        else
            s += w->king_storm[d][their_rank];
#ifdef EVAL_TRACE
        if (cand) {
            cand->slot[cand->count] = (uint16_t)TSLOT(king_shelter[d][our_rank]);
            cand->coef[cand->count++] = 1;
            cand->slot[cand->count] = (uint16_t)(blocked ? TSLOT(king_storm_blocked[their_rank])
                                                         : TSLOT(king_storm[d][their_rank]));
            cand->coef[cand->count++] = 1;
        }
#endif
    }
    return s;
}

Score pawns_king_safety(const Position *pos, PawnEntry *e, Color c TRACE_PARAM)
{
#ifdef EVAL_TRACE
    ShelterTrace *st = trace ? &trace->shelter[c] : NULL;
    if (st)
        st->candidates = 1;
#endif
    Square ksq = king_square(pos, c);
    int castling =
        castling_rights(pos) & (c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);
    if (e->king_square[c] == ksq && e->king_castling[c] == castling)
        return e->king[c];

    /* The shelter the king could still reach by castling counts too. */
    Score shelter = shelter_storm(pos, c, ksq CANDIDATE_ARG(st ? &st->candidate[0] : NULL));
    if (castling & (WHITE_OO | BLACK_OO)) {
        Score s = shelter_storm(pos, c, relative_square(c, G1)
                                CANDIDATE_ARG(st ? &st->candidate[st->candidates++] : NULL));
        if (mg_value(s) > mg_value(shelter))
            shelter = s;
    }
    if (castling & (WHITE_OOO | BLACK_OOO)) {
        Score s = shelter_storm(pos, c, relative_square(c, C1)
                                CANDIDATE_ARG(st ? &st->candidate[st->candidates++] : NULL));
        if (mg_value(s) > mg_value(shelter))
            shelter = s;
    }

    int min_distance = 0;
    Bitboard pawns = pieces_cp(pos, c, PAWN);
    if (pawns) {
        min_distance = 8;
        while (pawns) {
            int d = DISTANCE[ksq][pop_lsb(&pawns)];
            if (d < min_distance)
                min_distance = d;
        }
    }
    e->king[c] = shelter + PARAMS.king_pawn_distance * min_distance;
#ifdef EVAL_TRACE
    if (st)
        st->pawn_distance = min_distance;
#endif
    e->king_square[c] = (uint8_t)ksq;
    e->king_castling[c] = (uint8_t)castling;
    return e->king[c];
}

/* The hand-crafted evaluation: material, piece-square tables, mobility, pawn structure
 * (pawns.c), king safety, pieces, threats, passed pawns, then endgame scaling and the
 * middlegame/endgame taper. Attack maps are built once per call, piece by piece, and
 * every later term reads them. All weights come from PARAMS (params.c). */
#include "eval/evaluate.h"

#include <string.h>

#include "eval/endgame.h"
#include "eval/kpk.h"
#include "eval/pawns.h"
#include "eval/trace.h"

#define CENTER_SQUARES ((1ULL << D4) | (1ULL << E4) | (1ULL << D5) | (1ULL << E5))

static Bitboard KING_ZONE[SQUARE_NB];

typedef struct {
    const Position *pos;
    PawnEntry *pe;
    Bitboard attacked[COLOR_NB][PIECE_TYPE_NB];
    Bitboard attacked_all[COLOR_NB];
    Bitboard attacked2[COLOR_NB];     /* attacked at least twice */
    Bitboard mobility_area[COLOR_NB];
    Bitboard king_zone[COLOR_NB];
    int king_attackers[COLOR_NB];     /* c's pieces hitting the enemy king zone */
    int king_attack_weight[COLOR_NB];
    int king_adjacent_hits[COLOR_NB]; /* c's attacks on squares next to the enemy king */
    Score terms[TERM_NB][COLOR_NB];
#ifdef EVAL_TRACE
    EvalCoeffs *trace;
#endif
} EvalInfo;

/* The trace pointer of an EvalInfo, as a local named trace (for TRACE statements). */
#ifdef EVAL_TRACE
#define TRACE_FROM(ei) EvalCoeffs *trace = (ei)->trace
#else
#define TRACE_FROM(ei) ((void)0)
#endif

void eval_init(void)
{
    static bool done = false;
    if (done)
        return;
    position_init();
    pawns_init();
    kpk_init();
    for (Square s = 0; s < SQUARE_NB; s++) {
        int f = file_of(s) < 1 ? 1 : file_of(s) > 6 ? 6 : file_of(s);
        int r = rank_of(s) < 1 ? 1 : rank_of(s) > 6 ? 6 : rank_of(s);
        Square c = make_square(f, r);
        KING_ZONE[s] = KING_ATTACKS[c] | square_bb(c);
    }
    params_apply(&DEFAULT_PARAMS);
    done = true;
}

void eval_set_params(const EvalParams *params)
{
    eval_init();
    params_apply(params);
}

/* ---- Set-up: pawn and king attacks, mobility areas, king zones ---- */

static void init_side(EvalInfo *ei, Color us)
{
    const Position *pos = ei->pos;
    Bitboard pawns = pieces_cp(pos, us, PAWN);
    Bitboard king = KING_ATTACKS[king_square(pos, us)];
    Bitboard pawn_att = ei->pe->attacks[us];
    /* Squares hit by two pawns: by a capture toward the a-file and one toward the h-file. */
    Bitboard west = us == WHITE ? (pawns & ~FILE_A_BB) << 7 : (pawns & ~FILE_A_BB) >> 9;
    Bitboard east = us == WHITE ? (pawns & ~FILE_H_BB) << 9 : (pawns & ~FILE_H_BB) >> 7;

    for (PieceType pt = PAWN; pt <= KING; pt++)
        ei->attacked[us][pt] = 0;
    ei->attacked[us][PAWN] = pawn_att;
    ei->attacked[us][KING] = king;
    ei->attacked_all[us] = pawn_att | king;
    ei->attacked2[us] = (pawn_att & king) | (west & east);
    ei->king_zone[us] = KING_ZONE[king_square(pos, us)];
    ei->king_attackers[us] = ei->king_attack_weight[us] = ei->king_adjacent_hits[us] = 0;
}

static void init_mobility_area(EvalInfo *ei, Color us)
{
    const Position *pos = ei->pos;
    /* Own pawns and king never make way, and enemy pawns guard their squares. Squares of
     * other own pieces count: defending them is worth something. */
    ei->mobility_area[us] =
        ~(pieces_cp(pos, us, PAWN) | pieces_cp(pos, us, KING) | ei->pe->attacks[!us]);
}

/* ---- Pieces ---- */

static inline void add_attacks(EvalInfo *ei, Color us, PieceType pt, Bitboard att)
{
    ei->attacked2[us] |= ei->attacked_all[us] & att;
    ei->attacked_all[us] |= att;
    ei->attacked[us][pt] |= att;
    if (att & ei->king_zone[!us]) {
        ei->king_attackers[us]++;
        ei->king_attack_weight[us] += PARAMS.ks_attacker_weight[pt];
        TRACE_FROM(ei);
        TRACE_DANGER(!us, ks_attacker_weight[pt], 1);
        ei->king_adjacent_hits[us] += popcount(att & ei->attacked[!us][KING]);
    }
}

static Score evaluate_minors(EvalInfo *ei, Color us, PieceType pt, Score *mobility, Score *psqt)
{
    const Position *pos = ei->pos;
    const Color them = !us;
    const EvalParams *w = &PARAMS;
    const Bitboard occupied = pieces(pos);
    /* Squares on ranks 4-6 that no enemy pawn can ever attack. */
    const Bitboard outposts = (us == WHITE ? 0x0000FFFFFF000000ULL : 0x000000FFFFFF0000ULL)
                            & ~ei->pe->attack_span[them];
    Score s = 0;
    TRACE_FROM(ei);

    for (Bitboard b = pieces_cp(pos, us, pt); b;) {
        Square sq = pop_lsb(&b);
        Bitboard att = pt == KNIGHT ? KNIGHT_ATTACKS[sq]
                                    : bishop_attacks(sq, occupied ^ pieces_cp(pos, us, QUEEN));
        add_attacks(ei, us, pt, att);
        *psqt += PSQT[make_piece(us, pt)][sq];
        TRACE_SCORE(us, psqt[pt][relative_square(us, sq) ^ 56], 1);
        int mob = popcount(att & ei->mobility_area[us]);
        *mobility += pt == KNIGHT ? w->mobility_knight[mob] : w->mobility_bishop[mob];
        TRACE(if (pt == KNIGHT) trace->linear[us][TSLOT(mobility_knight[mob])]++;
              else trace->linear[us][TSLOT(mobility_bishop[mob])]++);

        if (outposts & ei->pe->attacks[us] & square_bb(sq)) {
            s += pt == KNIGHT ? w->knight_outpost : w->bishop_outpost;
            TRACE(if (pt == KNIGHT) trace->linear[us][TSLOT(knight_outpost)]++;
                  else trace->linear[us][TSLOT(bishop_outpost)]++);
        } else if (pt == KNIGHT && (att & outposts & ei->pe->attacks[us] & ~pieces_c(pos, us))) {
            s += w->knight_reachable_outpost;
            TRACE_SCORE(us, knight_reachable_outpost, 1);
        }
        if (pieces_p(pos, PAWN) & pawn_push_bb(us, square_bb(sq))) {
            s += w->minor_behind_pawn;
            TRACE_SCORE(us, minor_behind_pawn, 1);
        }
        if (pt == BISHOP) {
            Bitboard same = (DARK_SQUARES & square_bb(sq)) ? DARK_SQUARES : LIGHT_SQUARES;
            s += w->bishop_pawns_same_color * popcount(pieces_cp(pos, us, PAWN) & same);
            TRACE_SCORE(us, bishop_pawns_same_color, popcount(pieces_cp(pos, us, PAWN) & same));
            if (more_than_one(bishop_attacks(sq, pieces_p(pos, PAWN)) & CENTER_SQUARES)) {
                s += w->bishop_long_diagonal;
                TRACE_SCORE(us, bishop_long_diagonal, 1);
            }
        }
    }
    return s;
}

static Score evaluate_rooks(EvalInfo *ei, Color us, Score *mobility, Score *psqt)
{
    const Position *pos = ei->pos;
    const Color them = !us;
    const EvalParams *w = &PARAMS;
    const Bitboard xray = pieces(pos) ^ pieces_cp(pos, us, QUEEN) ^ pieces_cp(pos, us, ROOK);
    const Square ksq = king_square(pos, us);
    Score s = 0;
    TRACE_FROM(ei);

    for (Bitboard b = pieces_cp(pos, us, ROOK); b;) {
        Square sq = pop_lsb(&b);
        Bitboard att = rook_attacks(sq, xray);
        add_attacks(ei, us, ROOK, att);
        *psqt += PSQT[make_piece(us, ROOK)][sq];
        TRACE_SCORE(us, psqt[ROOK][relative_square(us, sq) ^ 56], 1);
        int mob = popcount(att & ei->mobility_area[us]);
        *mobility += w->mobility_rook[mob];
        TRACE_SCORE(us, mobility_rook[mob], 1);

        int f = file_of(sq);
        if (ei->pe->semiopen[us] & (1 << f)) {
            bool open = ei->pe->semiopen[them] & (1 << f);
            s += open ? w->rook_open_file : w->rook_semiopen_file;
            TRACE(if (open) trace->linear[us][TSLOT(rook_open_file)]++;
                  else trace->linear[us][TSLOT(rook_semiopen_file)]++);
        } else if (mob <= 3) {
            /* Shut in on the king's wing by its own king, which can no longer castle. */
            int kf = file_of(ksq);
            int rights =
                castling_rights(pos) & (us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);
            if ((kf < 4) == (f < kf) && relative_rank(us, ksq) == 0 && !rights) {
                s += w->rook_trapped;
                TRACE_SCORE(us, rook_trapped, 1);
            }
        }
        if (relative_rank(us, sq) == 6
            && (relative_rank(us, king_square(pos, them)) == 7
                || (pieces_cp(pos, them, PAWN) & rank_bb(rank_of(sq))))) {
            s += w->rook_on_seventh;
            TRACE_SCORE(us, rook_on_seventh, 1);
        }
    }
    return s;
}

static void evaluate_queens(EvalInfo *ei, Color us, Score *mobility, Score *psqt)
{
    const Position *pos = ei->pos;
    TRACE_FROM(ei);
    for (Bitboard b = pieces_cp(pos, us, QUEEN); b;) {
        Square sq = pop_lsb(&b);
        Bitboard att = queen_attacks(sq, pieces(pos));
        add_attacks(ei, us, QUEEN, att);
        *psqt += PSQT[make_piece(us, QUEEN)][sq];
        TRACE_SCORE(us, psqt[QUEEN][relative_square(us, sq) ^ 56], 1);
        *mobility += PARAMS.mobility_queen[popcount(att & ei->mobility_area[us])];
        TRACE_SCORE(us, mobility_queen[popcount(att & ei->mobility_area[us])], 1);
    }
}

/* ---- King safety (of us, against them) ---- */

static Score evaluate_king(EvalInfo *ei, Color us)
{
    const Position *pos = ei->pos;
    const Color them = !us;
    const EvalParams *w = &PARAMS;
    const Square ksq = king_square(pos, us);
    TRACE_FROM(ei);
    Score shelter = pawns_king_safety(pos, ei->pe, us TRACE_ARG(trace));
    Score s = shelter;
    bool queen = pieces_cp(pos, them, QUEEN) != 0;

    if (ei->king_attackers[them] > (queen ? 0 : 1)) {
        const Bitboard occupied = pieces(pos);
        /* Squares they attack that we defend at most once, by the king or queen only. */
        Bitboard weak = ei->attacked_all[them] & ~ei->attacked2[us]
                      & (~ei->attacked_all[us] | ei->attacked[us][KING] | ei->attacked[us][QUEEN]);
        Bitboard safe =
            ~pieces_c(pos, them) & (~ei->attacked_all[us] | (weak & ei->attacked2[them]));
        Bitboard rook_lines = rook_attacks(ksq, occupied),
                 bishop_lines = bishop_attacks(ksq, occupied);

        Bitboard rook_checks = rook_lines & ei->attacked[them][ROOK];
        Bitboard queen_checks = (rook_lines | bishop_lines) & ei->attacked[them][QUEEN]
                              & ~ei->attacked[us][QUEEN] & safe & ~(rook_checks & safe);
        Bitboard bishop_checks = bishop_lines & ei->attacked[them][BISHOP];
        Bitboard knight_checks = KNIGHT_ATTACKS[ksq] & ei->attacked[them][KNIGHT];

        int danger = ei->king_attack_weight[them]
                   + w->ks_zone_attack * ei->king_adjacent_hits[them]
                   + w->ks_weak_square * popcount(weak & ei->king_zone[us])
                   + w->ks_unsafe_check
                         * popcount((rook_checks | bishop_checks | knight_checks) & ~safe)
                   + w->ks_shelter * mg_value(shelter) / 8
                   + w->ks_offset;
        if (rook_checks & safe)
            danger += w->ks_safe_check[ROOK];
        if (queen_checks)
            danger += w->ks_safe_check[QUEEN];
        if (bishop_checks & safe & ~queen_checks)
            danger += w->ks_safe_check[BISHOP];
        if (knight_checks & safe)
            danger += w->ks_safe_check[KNIGHT];
        if (!queen)
            danger += w->ks_no_queen;
        /* The attacker weights were counted in add_attacks; the shelter term is rebuilt
         * from the shelter trace. */
        TRACE(trace->danger_on[us] = true;
              trace->danger[us][TSLOT(ks_zone_attack)] += (int16_t)ei->king_adjacent_hits[them];
              trace->danger[us][TSLOT(ks_weak_square)]
                  += (int16_t)popcount(weak & ei->king_zone[us]);
              trace->danger[us][TSLOT(ks_unsafe_check)]
                  += (int16_t)popcount((rook_checks | bishop_checks | knight_checks) & ~safe);
              trace->danger[us][TSLOT(ks_offset)]++;
              if (rook_checks & safe) trace->danger[us][TSLOT(ks_safe_check[ROOK])]++;
              if (queen_checks) trace->danger[us][TSLOT(ks_safe_check[QUEEN])]++;
              if (bishop_checks & safe & ~queen_checks)
                  trace->danger[us][TSLOT(ks_safe_check[BISHOP])]++;
              if (knight_checks & safe) trace->danger[us][TSLOT(ks_safe_check[KNIGHT])]++;
              if (!queen) trace->danger[us][TSLOT(ks_no_queen)]++);
        if (danger > 0) {
            if (danger > 3000)
                danger = 3000; /* keeps the packed score in range */
            s -= make_score(danger * danger / 512, danger / 16);
        }
    }
    return s;
}

/* ---- Threats (by us, against them) ---- */

static Score evaluate_threats(const EvalInfo *ei, Color us)
{
    TRACE_FROM(ei);
    const Position *pos = ei->pos;
    const Color them = !us;
    const EvalParams *w = &PARAMS;
    const Bitboard occupied = pieces(pos);
    const Bitboard targets = pieces_c(pos, them) & ~pieces_p(pos, KING);
    const Bitboard non_pawn = targets & ~pieces_p(pos, PAWN);
    Score s = 0;

    Bitboard strongly_protected =
        ei->attacked[them][PAWN] | (ei->attacked2[them] & ~ei->attacked2[us]);
    Bitboard defended = non_pawn & strongly_protected;
    Bitboard weak = targets & ~strongly_protected & ei->attacked_all[us];

    if (defended | weak) {
        Bitboard b = (defended | weak) & (ei->attacked[us][KNIGHT] | ei->attacked[us][BISHOP]);
        while (b) {
            PieceType pt = type_of(piece_on(pos, pop_lsb(&b)));
            s += w->threat_by_minor[pt];
            TRACE_SCORE(us, threat_by_minor[pt], 1);
        }
        b = weak & ei->attacked[us][ROOK];
        while (b) {
            PieceType pt = type_of(piece_on(pos, pop_lsb(&b)));
            s += w->threat_by_rook[pt];
            TRACE_SCORE(us, threat_by_rook[pt], 1);
        }
        if (weak & ei->attacked[us][KING]) {
            s += w->threat_by_king;
            TRACE_SCORE(us, threat_by_king, 1);
        }
        b = ~ei->attacked_all[them] | (non_pawn & ei->attacked2[us]);
        s += w->threat_hanging * popcount(weak & b);
        TRACE_SCORE(us, threat_hanging, popcount(weak & b));
    }

    /* Pieces attacked by our pawns that are not themselves en prise. */
    Bitboard safe_pawns =
        pieces_cp(pos, us, PAWN) & (~ei->attacked_all[them] | ei->attacked_all[us]);
    Bitboard b = pawn_attacks_bb(us, safe_pawns) & non_pawn;
    while (b) {
        PieceType pt = type_of(piece_on(pos, pop_lsb(&b)));
        s += w->threat_by_pawn[pt];
        TRACE_SCORE(us, threat_by_pawn[pt], 1);
    }

    /* Pieces a safe pawn push would attack. */
    Bitboard rank3 = us == WHITE ? rank_bb(2) : rank_bb(5);
    Bitboard pushes = pawn_push_bb(us, pieces_cp(pos, us, PAWN)) & ~occupied;
    pushes |= pawn_push_bb(us, pushes & rank3) & ~occupied;
    pushes &= ~ei->attacked[them][PAWN] & (ei->attacked_all[us] | ~ei->attacked_all[them]);
    s += w->threat_pawn_push * popcount(pawn_attacks_bb(us, pushes) & non_pawn);
    TRACE_SCORE(us, threat_pawn_push, popcount(pawn_attacks_bb(us, pushes) & non_pawn));
    return s;
}

/* ---- Passed pawns: the terms that depend on pieces and kings ---- */

static Score evaluate_passed(const EvalInfo *ei, Color us)
{
    TRACE_FROM(ei);
    const Position *pos = ei->pos;
    const Color them = !us;
    const EvalParams *w = &PARAMS;
    const Bitboard occupied = pieces(pos);
    const Square our_king = king_square(pos, us), their_king = king_square(pos, them);
    Score s = 0;

    for (Bitboard b = ei->pe->passed[us]; b;) {
        Square sq = pop_lsb(&b);
        int r = relative_rank(us, sq);
        if (r < 3)
            continue;
        Square stop = sq + pawn_push(us);
        int d_them = DISTANCE[their_king][stop], d_us = DISTANCE[our_king][stop];
        s += w->passed_king_them[r] * (d_them < 5 ? d_them : 5)
           + w->passed_king_us[r] * (d_us < 5 ? d_us : 5);
        TRACE_SCORE(us, passed_king_them[r], d_them < 5 ? d_them : 5);
        TRACE_SCORE(us, passed_king_us[r], d_us < 5 ? d_us : 5);
        if (!(occupied & square_bb(stop))) {
            s += w->passed_block_free[r];
            TRACE_SCORE(us, passed_block_free[r], 1);
            Bitboard unsafe = FORWARD_FILE[us][sq] & (ei->attacked_all[them] | pieces_c(pos, them));
            if (!unsafe) {
                s += w->passed_safe_path[r];
                TRACE_SCORE(us, passed_safe_path[r], 1);
            } else if (!(unsafe & square_bb(stop))) {
                s += w->passed_safe_push[r];
                TRACE_SCORE(us, passed_safe_push[r], 1);
            }
        }
    }
    return s;
}

/* Plies until c's fastest passer that the enemy king cannot catch (rule of the square)
 * queens, or a large number; only in pawn endings for the defender. */
static int unstoppable_plies(const Position *pos, const PawnEntry *pe, Color c)
{
    const Color them = !c;
    int best = 1000;
    if (pieces_c(pos, them) & ~pieces_p(pos, PAWN) & ~pieces_p(pos, KING))
        return best;
    for (Bitboard b = pe->passed[c]; b;) {
        Square sq = pop_lsb(&b);
        if (FORWARD_FILE[c][sq] & pieces(pos))
            continue;
        int r = relative_rank(c, sq);
        int steps = r == 1 ? 5 : 7 - r;
        Square queening = relative_square(c, make_square(file_of(sq), 7));
        int king_moves = DISTANCE[king_square(pos, them)][queening] - (pos->side == them ? 1 : 0);
        if (king_moves > steps) {
            int plies = 2 * steps - (pos->side == c ? 1 : 0);
            if (plies < best)
                best = plies;
        }
    }
    return best;
}

/* ---- Main ---- */

static int game_phase(const Position *pos)
{
    int phase = popcount(pieces_p(pos, KNIGHT) | pieces_p(pos, BISHOP))
              + 2 * popcount(pieces_p(pos, ROOK)) + 4 * popcount(pieces_p(pos, QUEEN));
    return phase < EVAL_PHASE_MAX ? phase : EVAL_PHASE_MAX;
}

static int evaluate_full(const Position *pos, PawnTable *pawns,
                         EvalBreakdown *breakdown TRACE_PARAM)
{
    int special;
    TRACE(memset(trace, 0, sizeof *trace));
    if (!pieces_p(pos, PAWN) && position_insufficient_material(pos)) {
        if (breakdown) {
            breakdown->special = true;
            breakdown->value = 0;
        }
        TRACE(trace->special = true);
        return 0;
    }
    if ((!more_than_one(pieces_c(pos, WHITE)) || !more_than_one(pieces_c(pos, BLACK)))
        && endgame_evaluate(pos, &special TRACE_ARG(trace))) {
        if (breakdown) {
            breakdown->special = true;
            breakdown->value = special;
        }
        return pos->side == WHITE ? special : -special;
    }

    EvalInfo ei;
    PawnEntry scratch;
    const EvalParams *w = &PARAMS;
    ei.pos = pos;
#ifdef EVAL_TRACE
    ei.trace = trace;
    if (trace)
        pawns = NULL; /* a cached entry would skip the pawn terms' trace */
#endif
    ei.pe = pawns_probe(pos, pawns, &scratch TRACE_ARG(trace));

    init_side(&ei, WHITE);
    init_side(&ei, BLACK);
    init_mobility_area(&ei, WHITE);
    init_mobility_area(&ei, BLACK);

    for (Color c = WHITE; c <= BLACK; c++) {
        Score material = 0;
        for (PieceType pt = PAWN; pt < KING; pt++) {
            material += w->piece_value[pt] * popcount(pieces_cp(pos, c, pt));
            TRACE_SCORE(c, piece_value[pt], popcount(pieces_cp(pos, c, pt)));
        }
        Bitboard bishops = pieces_cp(pos, c, BISHOP);
        ei.terms[TERM_MATERIAL][c] = material;
        ei.terms[TERM_IMBALANCE][c] = ((bishops & DARK_SQUARES) && (bishops & LIGHT_SQUARES))
                                      ? w->bishop_pair : 0;
        ei.terms[TERM_PAWNS][c] = ei.pe->structure[c];
        ei.terms[TERM_PSQT][c] = ei.pe->psqt[c] + PSQT[make_piece(c, KING)][king_square(pos, c)];
        ei.terms[TERM_MOBILITY][c] = 0;
        ei.terms[TERM_TEMPO][c] = pos->side == c ? w->tempo : 0;
        TRACE_SCORE(c, bishop_pair, (bishops & DARK_SQUARES) && (bishops & LIGHT_SQUARES));
        TRACE_SCORE(c, psqt[KING][relative_square(c, king_square(pos, c)) ^ 56], 1);
        TRACE_SCORE(c, tempo, pos->side == c);
    }
    /* Pieces in order N, B, R, Q for both sides, so that attack maps grow alike. */
    for (Color c = WHITE; c <= BLACK; c++) {
        Score *mob = &ei.terms[TERM_MOBILITY][c], *psqt = &ei.terms[TERM_PSQT][c];
        ei.terms[TERM_KNIGHTS][c] = evaluate_minors(&ei, c, KNIGHT, mob, psqt);
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        Score *mob = &ei.terms[TERM_MOBILITY][c], *psqt = &ei.terms[TERM_PSQT][c];
        ei.terms[TERM_BISHOPS][c] = evaluate_minors(&ei, c, BISHOP, mob, psqt);
    }
    for (Color c = WHITE; c <= BLACK; c++)
        ei.terms[TERM_ROOKS][c] =
            evaluate_rooks(&ei, c, &ei.terms[TERM_MOBILITY][c], &ei.terms[TERM_PSQT][c]);
    for (Color c = WHITE; c <= BLACK; c++)
        evaluate_queens(&ei, c, &ei.terms[TERM_MOBILITY][c], &ei.terms[TERM_PSQT][c]);
    for (Color c = WHITE; c <= BLACK; c++) {
        ei.terms[TERM_KING][c] = evaluate_king(&ei, c);
        ei.terms[TERM_THREATS][c] = evaluate_threats(&ei, c);
        ei.terms[TERM_PASSED][c] = evaluate_passed(&ei, c);
    }
    int fastest_white = unstoppable_plies(pos, ei.pe, WHITE),
        fastest_black = unstoppable_plies(pos, ei.pe, BLACK);
    if (fastest_white < fastest_black) {
        ei.terms[TERM_PASSED][WHITE] += w->passed_unstoppable;
        TRACE_SCORE(WHITE, passed_unstoppable, 1);
    } else if (fastest_black < fastest_white) {
        ei.terms[TERM_PASSED][BLACK] += w->passed_unstoppable;
        TRACE_SCORE(BLACK, passed_unstoppable, 1);
    }

    int mg = 0, eg = 0;
    for (int t = 0; t < TERM_NB; t++) {
        mg += mg_value(ei.terms[t][WHITE]) - mg_value(ei.terms[t][BLACK]);
        eg += eg_value(ei.terms[t][WHITE]) - eg_value(ei.terms[t][BLACK]);
    }
    int phase = game_phase(pos);
    Color strong = eg > 0 ? WHITE : BLACK;
    int scale =
        eg != 0 ? endgame_scale(pos, strong, ei.pe->passed[strong] TRACE_ARG(NULL)) : SCALE_NORMAL;
    /* Both sides' scale: the side ahead may change with the weights. */
    TRACE(trace->phase = phase;
          for (Color c = WHITE; c <= BLACK; c++)
              endgame_scale(pos, c, ei.pe->passed[c], &trace->scale[c]));
    /* Scale 0 is a dead draw for the side ahead: no middlegame remainder either. */
    int v = scale == 0 ? 0
                       : (mg * phase + eg * (EVAL_PHASE_MAX - phase) * scale / SCALE_NORMAL)
                             / EVAL_PHASE_MAX;
    if (v > EVAL_MAX)
        v = EVAL_MAX;
    if (v < -EVAL_MAX)
        v = -EVAL_MAX;

    if (breakdown) {
        for (int t = 0; t < TERM_NB; t++)
            for (Color c = WHITE; c <= BLACK; c++)
                breakdown->terms[t][c] = ei.terms[t][c];
        breakdown->mg = mg;
        breakdown->eg = eg;
        breakdown->phase = phase;
        breakdown->scale = scale;
        breakdown->special = false;
        breakdown->value = v;
    }
    return pos->side == WHITE ? v : -v;
}

int evaluate(const Position *pos, PawnTable *pawns)
{
    return evaluate_full(pos, pawns, NULL TRACE_ARG(NULL));
}

#ifdef EVAL_TRACE
int evaluate_traced(const Position *pos, EvalCoeffs *coeffs)
{
    return evaluate_full(pos, NULL, NULL, coeffs);
}
#endif

int evaluate_breakdown(const Position *pos, EvalBreakdown *out)
{
    eval_init();
    return evaluate_full(pos, NULL, out TRACE_ARG(NULL));
}

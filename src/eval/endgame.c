/* Endgame knowledge: bare-king endings and drawish-endgame scaling. */
#include "eval/endgame.h"

#include "eval/kpk.h"
#include "eval/params.h"
#include "eval/pawns.h"

/* Non-pawn material in rough centipawns, only for deciding which rule applies. */
static int non_pawn_material(const Position *pos, Color c)
{
    return 320 * popcount(pieces_cp(pos, c, KNIGHT)) + 330 * popcount(pieces_cp(pos, c, BISHOP))
         + 500 * popcount(pieces_cp(pos, c, ROOK)) + 950 * popcount(pieces_cp(pos, c, QUEEN));
}

/* 0 in the centre .. 6 in a corner. */
static int edge_closeness(Square s)
{
    int f = file_of(s), r = rank_of(s);
    return 6 - ((f < 7 - f ? f : 7 - f) + (r < 7 - r ? r : 7 - r));
}

static int manhattan(Square a, Square b)
{
    int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
    return (df < 0 ? -df : df) + (dr < 0 ? -dr : dr);
}

static int material_eg(const Position *pos, Color c TRACE_PARAM)
{
    int v = 0;
    for (PieceType pt = PAWN; pt < KING; pt++) {
        v += eg_value(PARAMS.piece_value[pt]) * popcount(pieces_cp(pos, c, pt));
        TRACE(trace->special_coef[TSLOT(piece_value[pt])]
                  += (int16_t)((c == WHITE ? 1 : -1) * popcount(pieces_cp(pos, c, pt))));
    }
    return v;
}

/* Score for the strong side (positive) when the weak side has a bare king; the trace
 * records it from White's view. */
static bool bare_king_score(const Position *pos, Color strong, int *score TRACE_PARAM)
{
    const int sign = strong == WHITE ? 1 : -1;
    (void)sign; /* used by the trace only */
    const Color weak = !strong;
    Bitboard pawns = pieces_cp(pos, strong, PAWN);
    Bitboard knights = pieces_cp(pos, strong, KNIGHT), bishops = pieces_cp(pos, strong, BISHOP);
    Bitboard majors = pieces_cp(pos, strong, ROOK) | pieces_cp(pos, strong, QUEEN);
    Square sk = king_square(pos, strong), wk = king_square(pos, weak);

    if (position_insufficient_material(pos)) {
        *score = 0;
        return true;
    }
    if (!pawns && !majors && !bishops && popcount(knights) == 2) {
        *score = 0; /* KNNK: mate exists but cannot be forced */
        return true;
    }
    if (!majors && !knights && !bishops && popcount(pawns) == 1) {
        Square p = lsb(pawns);
        if (!kpk_probe(strong, sk, p, wk, pos->side)) {
            *score = 0;
            return true;
        }
        *score =
            EVAL_KNOWN_WIN + eg_value(PARAMS.piece_value[PAWN]) + 10 * relative_rank(strong, p);
        TRACE(trace->special_coef[TSLOT(piece_value[PAWN])] += (int16_t)sign;
              trace->special_constant = sign * (EVAL_KNOWN_WIN + 10 * relative_rank(strong, p)));
        return true;
    }
    bool bishop_pair = (bishops & DARK_SQUARES) && (bishops & LIGHT_SQUARES);
    bool mating = majors || bishop_pair || (bishops && knights) || popcount(knights) >= 3;
    if (!mating)
        return false; /* pawns plus minors: the normal evaluation with scaling */

    int v = EVAL_KNOWN_WIN + material_eg(pos, strong TRACE_ARG(trace))
          + PARAMS.mate_kings_close * (7 - DISTANCE[sk][wk]);
    TRACE(trace->special_coef[TSLOT(mate_kings_close)] += (int16_t)(sign * (7 - DISTANCE[sk][wk]));
          trace->special_constant = sign * EVAL_KNOWN_WIN);
    if (!pawns && !majors && popcount(bishops) == 1 && popcount(knights) == 1) {
        /* KBNK: only the corners of the bishop's colour mate. */
        bool dark = (bishops & DARK_SQUARES) != 0;
        int d1 = manhattan(wk, dark ? A1 : H1), d2 = manhattan(wk, dark ? H8 : A8);
        int d = d1 < d2 ? d1 : d2;
        v += 3 * PARAMS.mate_kbnk_corner * (7 - (d > 7 ? 7 : d))
           + PARAMS.mate_push_to_edge * edge_closeness(wk);
        TRACE(trace->special_coef[TSLOT(mate_kbnk_corner)]
                  += (int16_t)(sign * 3 * (7 - (d > 7 ? 7 : d))));
    } else {
        v += PARAMS.mate_push_to_edge * edge_closeness(wk);
    }
    TRACE(trace->special_coef[TSLOT(mate_push_to_edge)] += (int16_t)(sign * edge_closeness(wk)));
    *score = v;
    return true;
}

bool endgame_evaluate(const Position *pos, int *score TRACE_PARAM)
{
    for (Color weak = WHITE; weak <= BLACK; weak++) {
        if (more_than_one(pieces_c(pos, weak)))
            continue;
        int v;
        if (!bare_king_score(pos, !weak, &v TRACE_ARG(trace)))
            return false;
        *score = weak == BLACK ? v : -v;
        TRACE(trace->special = true);
        return true;
    }
    return false;
}

/* Records the rule that applied into *scale_trace (tuner build), the constant included. */
#ifdef EVAL_TRACE
#define SCALE_RETURN(constant_, n_, s0, c0, s1, c1, clamp_, value)                                 \
    do {                                                                                           \
        if (scale_trace)                                                                           \
            *scale_trace = (ScaleTrace){ (constant_), (n_), { (uint16_t)(s0), (uint16_t)(s1) },    \
                                         { (int16_t)(c0), (int16_t)(c1) }, (clamp_) };             \
        return (value);                                                                            \
    } while (0)
#else
#define SCALE_RETURN(constant_, n_, s0, c0, s1, c1, clamp_, value) return (value)
#endif

int endgame_scale(const Position *pos, Color strong, Bitboard strong_passed SCALE_TRACE_PARAM)
{
    const Color weak = !strong;
    Bitboard strong_pawns = pieces_cp(pos, strong, PAWN);
    int npm_strong = non_pawn_material(pos, strong), npm_weak = non_pawn_material(pos, weak);

    if (!strong_pawns && npm_strong - npm_weak <= 330)
        SCALE_RETURN(0, npm_strong < 500 ? 0 : 1, TSLOT(scale_pawnless_small_edge), 1, 0, 0, false,
                     npm_strong < 500 ? 0 : PARAMS.scale_pawnless_small_edge);

    Bitboard wb = pieces_cp(pos, strong, BISHOP), bb = pieces_cp(pos, weak, BISHOP);
    if (npm_strong == 330 && npm_weak == 330 && popcount(wb) == 1 && popcount(bb) == 1
        && !(wb & DARK_SQUARES) != !(bb & DARK_SQUARES)) {
        int s =
            PARAMS.scale_ocb_bishops_only + PARAMS.scale_ocb_per_passed * popcount(strong_passed);
        SCALE_RETURN(0, 2, TSLOT(scale_ocb_bishops_only), 1, TSLOT(scale_ocb_per_passed),
                     popcount(strong_passed), true, s < SCALE_NORMAL ? s : SCALE_NORMAL);
    }
    if (popcount(wb) == 1 && popcount(bb) == 1 && !(wb & DARK_SQUARES) != !(bb & DARK_SQUARES))
        SCALE_RETURN(0, 1, TSLOT(scale_ocb_with_pieces), 1, 0, 0, false,
                     PARAMS.scale_ocb_with_pieces);

    /* Pawns all on one rook file, the weak king in the promotion corner. */
    if (strong_pawns && (!(strong_pawns & ~FILE_A_BB) || !(strong_pawns & ~FILE_H_BB))) {
        Square queening = relative_square(strong, make_square(file_of(lsb(strong_pawns)), 7));
        Square wk = king_square(pos, weak);
        if (npm_strong == 330 && popcount(wb) == 1
            && !(wb & DARK_SQUARES) != !(square_bb(queening) & DARK_SQUARES)
            && DISTANCE[wk][queening] <= 1)
            SCALE_RETURN(0, 0, 0, 0, 0, 0, false, 0); /* wrong-coloured bishop */
        if (npm_strong == 0) {
            Square front = frontmost_square(strong, strong_pawns);
            if (wk == queening || (file_of(wk) == file_of(front)
                                   && relative_rank(strong, wk) > relative_rank(strong, front)))
                SCALE_RETURN(0, 0, 0, 0, 0, 0, false, 0);
        }
    }
    SCALE_RETURN(SCALE_NORMAL, 0, 0, 0, 0, 0, false, SCALE_NORMAL);
}

/* The evaluation weights (the one table a tuner rewrites), their descriptions and the
 * tuner's access to them one value at a time; params_text.c prints and reads the table's
 * C-source format. */
#include "eval/params.h"

#include <stdlib.h>
#include <string.h>

#define FIELD_SIZE(f) (sizeof(((EvalParams *)0)->f))
#define P_SCALAR(f, k) { #f, offsetof(EvalParams, f), 1, 0, 1, k }
#define P_ARRAY(f, k, per) { #f, offsetof(EvalParams, f), (int)(FIELD_SIZE(f) / 4), 1, per, k }
#define P_TABLE(f, k, per) \
    { #f, offsetof(EvalParams, f), (int)(FIELD_SIZE(f) / 4), \
      (int)(FIELD_SIZE(f) / FIELD_SIZE(f[0])), per, k }

/* In struct order; tests check that the fields tile EvalParams exactly. */
const ParamInfo PARAM_INFO[] = {
    P_ARRAY(piece_value, PARAM_SCORE, 6),
    P_TABLE(psqt, PARAM_SCORE, 4),
    P_SCALAR(bishop_pair, PARAM_SCORE),
    P_SCALAR(tempo, PARAM_SCORE),
    P_ARRAY(mobility_knight, PARAM_SCORE, 5),
    P_ARRAY(mobility_bishop, PARAM_SCORE, 5),
    P_ARRAY(mobility_rook, PARAM_SCORE, 5),
    P_ARRAY(mobility_queen, PARAM_SCORE, 5),
    P_SCALAR(pawn_isolated, PARAM_SCORE),
    P_SCALAR(pawn_doubled, PARAM_SCORE),
    P_SCALAR(pawn_backward, PARAM_SCORE),
    P_SCALAR(pawn_weak_unopposed, PARAM_SCORE),
    P_ARRAY(pawn_connected, PARAM_SCORE, 4),
    P_SCALAR(pawn_supported, PARAM_SCORE),
    P_ARRAY(passed_rank, PARAM_SCORE, 4),
    P_ARRAY(passed_block_free, PARAM_SCORE, 4),
    P_ARRAY(passed_safe_push, PARAM_SCORE, 4),
    P_ARRAY(passed_safe_path, PARAM_SCORE, 4),
    P_ARRAY(passed_king_them, PARAM_SCORE, 4),
    P_ARRAY(passed_king_us, PARAM_SCORE, 4),
    P_SCALAR(passed_unstoppable, PARAM_SCORE),
    P_SCALAR(knight_outpost, PARAM_SCORE),
    P_SCALAR(bishop_outpost, PARAM_SCORE),
    P_SCALAR(knight_reachable_outpost, PARAM_SCORE),
    P_SCALAR(minor_behind_pawn, PARAM_SCORE),
    P_SCALAR(bishop_pawns_same_color, PARAM_SCORE),
    P_SCALAR(bishop_long_diagonal, PARAM_SCORE),
    P_SCALAR(rook_open_file, PARAM_SCORE),
    P_SCALAR(rook_semiopen_file, PARAM_SCORE),
    P_SCALAR(rook_on_seventh, PARAM_SCORE),
    P_SCALAR(rook_trapped, PARAM_SCORE),
    P_TABLE(king_shelter, PARAM_SCORE, 4),
    P_TABLE(king_storm, PARAM_SCORE, 4),
    P_ARRAY(king_storm_blocked, PARAM_SCORE, 4),
    P_SCALAR(king_pawn_distance, PARAM_SCORE),
    P_ARRAY(ks_attacker_weight, PARAM_INT, 6),
    P_SCALAR(ks_zone_attack, PARAM_INT),
    P_SCALAR(ks_weak_square, PARAM_INT),
    P_ARRAY(ks_safe_check, PARAM_INT, 6),
    P_SCALAR(ks_unsafe_check, PARAM_INT),
    P_SCALAR(ks_no_queen, PARAM_INT),
    P_SCALAR(ks_shelter, PARAM_INT),
    P_SCALAR(ks_offset, PARAM_INT),
    P_ARRAY(threat_by_pawn, PARAM_SCORE, 6),
    P_ARRAY(threat_by_minor, PARAM_SCORE, 6),
    P_ARRAY(threat_by_rook, PARAM_SCORE, 6),
    P_SCALAR(threat_by_king, PARAM_SCORE),
    P_SCALAR(threat_hanging, PARAM_SCORE),
    P_SCALAR(threat_pawn_push, PARAM_SCORE),
    P_SCALAR(scale_ocb_bishops_only, PARAM_INT),
    P_SCALAR(scale_ocb_per_passed, PARAM_INT),
    P_SCALAR(scale_ocb_with_pieces, PARAM_INT),
    P_SCALAR(scale_pawnless_small_edge, PARAM_INT),
    P_SCALAR(mate_push_to_edge, PARAM_INT),
    P_SCALAR(mate_kings_close, PARAM_INT),
    P_SCALAR(mate_kbnk_corner, PARAM_INT),
};
const int PARAM_INFO_COUNT = (int)(sizeof PARAM_INFO / sizeof PARAM_INFO[0]);

/* ---- BEGIN TUNED PARAMETERS (a tuner replaces everything up to the END line) ---- */
/* Tuned by tools/tuner (adam, msq, K 1.1258): loss 0.107457 -> 0.102189; scale_pawnless_small_edge
 * then raised from 0 to the floor of 1 (docs/tuning.md). */
const EvalParams DEFAULT_PARAMS = {
    .piece_value = {
        S(  54,  141), S( 267,  411), S( 276,  436), S( 352,  706), S( 780, 1322), S(   0,    0),
    },
    .psqt = {
        {
            S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
            S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
            S(  32,  -11), S(   7,   40), S(  57,   61), S(  95,    8),
            S(  90,   25), S(  -6,   14), S( 106,    7), S(  27,   39),
            S(   2,   29), S(   0,   11), S(  12,   37), S(  47,   21),
            S(  83,  -15), S(  34,   24), S(  42,   28), S(   2,   27),
            S(  12,   27), S(  13,    7), S(   4,   12), S(  16,  -17),
            S(  31,  -28), S(  26,    7), S(   8,   16), S(  -2,   14),
            S(  -2,   31), S(   1,   20), S(  10,    0), S(  19,  -12),
            S(  26,  -13), S(   3,    2), S(   6,   12), S( -20,   21),
            S( -17,   20), S( -14,   16), S( -17,    6), S( -11,   13),
            S(   7,    8), S(  -2,   11), S( -11,    5), S( -33,    8),
            S(  -7,   29), S(   0,   22), S(  -7,    1), S(   5,   -5),
            S(   8,   43), S(   0,    2), S(   2,   14), S( -27,   19),
            S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
            S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
        },
        {
            S(-113,   33), S( -91,   57), S(  36,    6), S( 169,  -12),
            S(-107,   57), S( -22,   63), S(-220,  105), S(  85, -169),
            S(  19,   21), S(  -3,   23), S(  43,   12), S(  62,   38),
            S(  11,   44), S(  79,   20), S(   1,   49), S(  15,   22),
            S(  -5,    9), S(  -1,   28), S(  22,   38), S(  32,   34),
            S( -10,   40), S(  16,   46), S(   7,   39), S(  33,  -10),
            S(  -1,   45), S(  -8,   32), S(  22,   29), S(  13,   47),
            S(  13,   53), S(  18,   49), S(   3,   27), S( -13,   40),
            S( -23,   34), S(  35,    6), S(   8,   34), S(   5,   42),
            S(  -1,   47), S(   9,   44), S(  21,   37), S(   6,   23),
            S( -10,   -8), S( -19,   -3), S( -13,    9), S(  15,   30),
            S(   6,   32), S(   5,    2), S(  -1,    7), S(   8,  -17),
            S( -30,    8), S( -58,   50), S( -22,   11), S(  -9,    8),
            S( -11,    9), S(   2,  -10), S( -25,    6), S(  -3,  -11),
            S( -65,  -19), S( -24,  -11), S( -38,    7), S( -25,   45),
            S(  -4,   -9), S( -30,   10), S( -20,  -28), S( -46,  -10),
        },
        {
            S(   8,   11), S( -84,   57), S( -35,   70), S( -64,   42),
            S( -86,   50), S( -78,   48), S( 152,   27), S( -53,   12),
            S(  25,   28), S( -47,   13), S(  31,   12), S( -29,   75),
            S(  -4,   55), S( -14,   52), S( -73,   47), S( -20,   23),
            S(  -2,   31), S(  19,   58), S( -17,   11), S(  -4,   38),
            S(  -3,   65), S(  28,   43), S(  -3,   46), S(   6,   68),
            S( -14,   61), S(   1,   35), S(  12,   33), S(  22,   22),
            S(  17,   33), S(  25,   30), S(   7,   50), S( -45,   63),
            S(  32,   14), S( -10,   36), S(   6,   48), S(  15,   50),
            S(  19,   36), S(  17,   48), S(  -4,   41), S(  38,   29),
            S(   4,   15), S(  27,   24), S(  -8,    4), S(   6,   37),
            S(   8,   50), S(  -4,   -4), S(  18,   27), S(   6,   26),
            S(  18,  -29), S(  -7,   -6), S(  15,   13), S(  -5,   37),
            S(  -9,   27), S(   6,   20), S(   8,  -26), S( -17,    3),
            S(  -6,   -7), S(  30,    1), S(  -4,   23), S( -42,   40),
            S( -33,   30), S( -12,   19), S( -20,    5), S(   3,  -40),
        },
        {
            S(  19,   72), S(  -7,   99), S( -30,  103), S(  -6,   89),
            S(  51,   86), S( -10,   89), S(  21,  104), S(  90,   56),
            S( -19,   80), S( -27,   83), S( -20,   93), S(   0,   72),
            S(  -3,   68), S( -22,   67), S(   4,   87), S(  43,   57),
            S(  -3,   84), S(   8,   81), S(  16,   66), S(  25,   76),
            S(  48,   49), S(  52,   51), S(  52,   59), S(  26,   69),
            S(  -4,   75), S(  10,   62), S(  -9,   70), S(  35,   61),
            S(  13,   56), S(  -5,   74), S(  39,   72), S( -13,   66),
            S( -35,   78), S( -15,   79), S( -26,   73), S( -19,   71),
            S(   8,   56), S( -28,   81), S( -13,   80), S( -24,   58),
            S( -23,   56), S( -20,   66), S( -17,   51), S( -21,   58),
            S(  -9,   33), S( -13,   45), S(   1,   54), S(  -7,   27),
            S( -38,   63), S( -37,   43), S( -21,   67), S( -28,   60),
            S( -17,   35), S( -22,   25), S( -24,   50), S( -40,   39),
            S( -26,   53), S( -19,   44), S( -10,   41), S(  -9,   42),
            S(  -6,   27), S( -18,   47), S(   0,   33), S( -12,   18),
        },
        {
            S( -10,  102), S( -43,  147), S( -11,  103), S( -34,  114),
            S( -95,  179), S(   7,   82), S(  24,   92), S(  42,   47),
            S( -53,  112), S( -58,   96), S( -40,  145), S( -58,  197),
            S( -12,  141), S( -75,  179), S( -96,  202), S(  38,   99),
            S( -34,  120), S(  -8,   95), S( -15,  117), S( -18,  138),
            S(  30,   99), S( -19,  175), S(  56,   40), S(  -3,  113),
            S( -26,  102), S(  -6,  117), S( -44,  124), S( -40,  165),
            S( -59,  196), S( -26,  149), S( -22,  123), S(  -1,   89),
            S( -16,   80), S(   5,   46), S( -20,  101), S( -31,  134),
            S( -36,  143), S( -33,  132), S(   6,  107), S( -12,   92),
            S( -26,   51), S( -27,  108), S( -10,   82), S( -26,   98),
            S( -23,  100), S( -15,  102), S(   9,   68), S(  -7,   49),
            S( -20,   71), S(  -4,   43), S( -12,   68), S( -11,   59),
            S( -12,   71), S( -20,   73), S( -13,   58), S(  29,  -35),
            S( -17,   58), S( -35,  105), S( -29,   71), S( -21,   73),
            S(   3,   33), S( -44,   50), S( -15,   32), S( -63,  148),
        },
        {
            S(-115, -120), S(-171, -142), S( -52,    1), S(-511,   98),
            S(-169,   50), S(  60,   -7), S(  -5,  109), S(-422, -170),
            S(-256,  -22), S( -64,   38), S(-139,   86), S(-143,   57),
            S( -75,   54), S( -91,   79), S( -89,  109), S( -91,    7),
            S(-196,   86), S( 120,   25), S(  36,   21), S(  44,   16),
            S( -30,   27), S(  60,   51), S(  18,   79), S( -83,   92),
            S( -89,    7), S( 122,   -8), S(  91,  -17), S(-113,   31),
            S( -61,   39), S( -42,   33), S(  61,   24), S( -53,   33),
            S(   9,  -33), S(  62,  -12), S(  33,  -29), S( -51,   17),
            S( -32,   17), S(  12,  -16), S( -20,   -8), S( -48,  -23),
            S(  12,  -43), S(  86,  -53), S(  58,  -47), S( -20,  -14),
            S(  -6,   -2), S(   5,  -37), S(  19,  -21), S(   6,  -30),
            S(  22,  -63), S(  19,  -32), S(  14,  -41), S(   8,  -32),
            S(  -1,  -21), S(  -7,  -44), S(   7,  -19), S(  -8,  -28),
            S(   2, -102), S(  49,  -57), S(  17,  -64), S( -17,  -42),
            S( -26,  -38), S( -15,  -63), S(  22,  -42), S(  13,  -79),
        },
    },
    .bishop_pair = S(  31,   88),
    .tempo = S(  10,   18),
    .mobility_knight = {
        S( -19,  -83), S( -24,  -25), S( -16,   44), S( -12,   61), S(  -4,   79),
        S(   2,   95), S(   6,   99), S(   9,  101), S(   7,   98),
    },
    .mobility_bishop = {
        S( -21,  -20), S( -31,   20), S( -13,   38), S(  -9,   62), S(  -5,   71),
        S(  -1,   82), S(   6,   84), S(   8,   88), S(   2,  103), S(   8,  105),
        S(   8,  103), S(  13,   95), S(  42,  103), S( -36,  134),
    },
    .mobility_rook = {
        S( -73,   16), S( -19,   49), S( -14,   86), S( -20,  119), S( -14,  115),
        S( -15,  127), S( -16,  136), S(  -9,  138), S( -10,  149), S(  -7,  151),
        S(  -2,  157), S(  -8,  170), S(   4,  166), S(   6,  167), S(  22,  158),
    },
    .mobility_queen = {
        S( -73,  -93), S( -63, -429), S( -38,  186), S( -36,  186), S( -28,  136),
        S( -33,  177), S( -26,  202), S( -26,  224), S( -30,  247), S( -28,  252),
        S( -27,  252), S( -24,  255), S( -26,  271), S( -24,  275), S( -21,  273),
        S( -21,  278), S( -24,  294), S(  -9,  272), S(  -6,  268), S(  -3,  243),
        S(  -3,  271), S(  52,  176), S(  37,  206), S(  19,  204), S( -31,  214),
        S( 169,  108), S( -80,  207), S(  -9,  221),
    },
    .pawn_isolated = S(   2,   -9),
    .pawn_doubled = S( -10,  -28),
    .pawn_backward = S(   0,  -17),
    .pawn_weak_unopposed = S( -12,  -15),
    .pawn_connected = {
        S(   0,    0), S(   1,   -1), S(  13,    6), S(   8,    7),
        S(  19,   28), S(  65,   63), S( 231,  -19), S(   0,    0),
    },
    .pawn_supported = S(   4,    7),
    .passed_rank = {
        S(   0,    0), S(  -8,   21), S( -15,   25), S(-127,   50),
        S( -17,   39), S(-114,  101), S( 138,  129), S(   0,    0),
    },
    .passed_block_free = {
        S(   0,    0), S(   0,    0), S(   0,    2), S(  12,    6),
        S(  17,    5), S(  13,   15), S(  92,   22), S(   0,    0),
    },
    .passed_safe_push = {
        S(   0,    0), S(   0,    0), S(   0,    2), S(  -6,   -2),
        S(  -1,   26), S(  25,   19), S(  20,   45), S(   0,    0),
    },
    .passed_safe_path = {
        S(   0,    0), S(   0,    0), S(   0,    4), S( -22,   24),
        S( -54,   66), S(  14,   69), S(  59,  104), S(   0,    0),
    },
    .passed_king_them = {
        S(   0,    0), S(   0,    0), S(   0,    0), S(  -6,   21),
        S(  -3,   33), S(   7,   45), S( -12,   56), S(   0,    0),
    },
    .passed_king_us = {
        S(   0,    0), S(   0,    0), S(   0,    0), S(  32,  -20),
        S(   6,  -17), S(  23,  -24), S( -13,  -25), S(   0,    0),
    },
    .passed_unstoppable = S(-1205,  155),
    .knight_outpost = S(  19,    6),
    .bishop_outpost = S(  19,   20),
    .knight_reachable_outpost = S(  16,    9),
    .minor_behind_pawn = S(   9,   16),
    .bishop_pawns_same_color = S(  -5,   -5),
    .bishop_long_diagonal = S(  12,   30),
    .rook_open_file = S(  26,    3),
    .rook_semiopen_file = S(   4,   12),
    .rook_on_seventh = S(  14,   -3),
    .rook_trapped = S( -17,  -38),
    .king_shelter = {
        {
            S( -17,    5), S(  23,  -39), S(  16,  -19), S(   1,   -9),
            S( -13,   28), S( -33,   68), S(  11,  -29), S(   0,    0),
        },
        {
            S( -18,   22), S(  37,   -4), S(  21,    7), S(  -5,   29),
            S( -19,   40), S( -11,   80), S( -43,   -4), S(   0,    0),
        },
        {
            S( -17,    1), S(  23,   -6), S(   2,  -11), S(  -4,    4),
            S(  -2,   15), S( -22,   13), S(  -8,   45), S(   0,    0),
        },
        {
            S(   0,   -8), S(  10,  -13), S(   1,   -8), S(  -4,    5),
            S(   2,   15), S(  29,    7), S(  32,  -19), S(   0,    0),
        },
    },
    .king_storm = {
        {
            S(  -8,  -22), S(  84,  -49), S( -54,   38), S( -43,   -6),
            S( -20,   -3), S(  -9,  -18), S(  -4,  -22), S(   0,    0),
        },
        {
            S( -12,    4), S( -53,   91), S( -58,   43), S( -37,   32),
            S( -17,   21), S(  -6,    7), S(  -6,    2), S(   0,    0),
        },
        {
            S(  -1,    3), S( -84,   69), S( -82,   57), S(  -9,   19),
            S(  -3,    4), S(  -1,    7), S(   2,  -16), S(   0,    0),
        },
        {
            S( -14,   11), S(  67,   -2), S( -76,   34), S( -32,   -7),
            S( -13,   -3), S( -16,   17), S( -14,   16), S(   0,    0),
        },
    },
    .king_storm_blocked = {
        S(   0,    0), S(   0,    0), S( -16,  -16), S(  -5,   -8),
        S(   5,  -12), S(   0,  -29), S(  26,  -33), S(   0,    0),
    },
    .king_pawn_distance = S(   4,  -24),
    .ks_attacker_weight = {
        0, 53, 44, 42, 41, 0,
    },
    .ks_zone_attack = 14,
    .ks_weak_square = 30,
    .ks_safe_check = {
        0, 90, 75, 134, 112, 0,
    },
    .ks_unsafe_check = 27,
    .ks_no_queen = -219,
    .ks_shelter = -10,
    .ks_offset = -14,
    .threat_by_pawn = {
        S(   0,    0), S(  44,   46), S(  27,   75), S(  55,   29), S(  47,   12), S(   0,    0),
    },
    .threat_by_minor = {
        S(   3,   18), S(  23,   38), S(  33,   31), S(  43,   20), S(  24,   28), S(   0,    0),
    },
    .threat_by_rook = {
        S(   4,   25), S(  14,   36), S(  16,   38), S(   1,   23), S(  44,   13), S(   0,    0),
    },
    .threat_by_king = S(  20,   22),
    .threat_hanging = S(   7,   19),
    .threat_pawn_push = S(  11,   24),
    .scale_ocb_bishops_only = 6,
    .scale_ocb_per_passed = 10,
    .scale_ocb_with_pieces = 53,
    .scale_pawnless_small_edge = 1,
    .mate_push_to_edge = 20,
    .mate_kings_close = 20,
    .mate_kbnk_corner = 20,
};
/* ---- END TUNED PARAMETERS ---- */

EvalParams PARAMS;
Score PSQT[PIECE_NB][SQUARE_NB];

void params_apply(const EvalParams *p)
{
    PARAMS = *p;
    memset(PSQT, 0, sizeof PSQT);
    for (Color c = WHITE; c <= BLACK; c++)
        for (PieceType pt = PAWN; pt <= KING; pt++)
            for (Square s = 0; s < SQUARE_NB; s++) /* tables are stored rank 8 first */
                PSQT[make_piece(c, pt)][s] = p->psqt[pt][relative_square(c, s) ^ 56];
}

/* ---- Tunable scalars: every Score gives two (mg, eg), every int one. ---- */

/* Locates tunable k: the field, the element and the half (0 mg, 1 eg, -1 int). */
static const ParamInfo *locate(int k, int *element, int *half)
{
    for (int i = 0; i < PARAM_INFO_COUNT; i++) {
        const ParamInfo *info = &PARAM_INFO[i];
        int n = info->count * (info->kind == PARAM_SCORE ? 2 : 1);
        if (k < n) {
            if (info->kind == PARAM_SCORE) {
                *element = k / 2;
                *half = k % 2;
            } else {
                *element = k;
                *half = -1;
            }
            return info;
        }
        k -= n;
    }
    return NULL;
}

int params_tunable_count(void)
{
    int n = 0;
    for (int i = 0; i < PARAM_INFO_COUNT; i++)
        n += PARAM_INFO[i].count * (PARAM_INFO[i].kind == PARAM_SCORE ? 2 : 1);
    return n;
}

int params_get(const EvalParams *p, int k)
{
    int element, half;
    const ParamInfo *info = locate(k, &element, &half);
    if (!info)
        return 0;
    int32_t v = *param_slot((EvalParams *)p, info, element);
    return half < 0 ? v : half == 0 ? mg_value(v) : eg_value(v);
}

void params_set(EvalParams *p, int k, int value)
{
    int element, half;
    const ParamInfo *info = locate(k, &element, &half);
    if (!info)
        return;
    int32_t *slot = param_slot(p, info, element);
    if (half < 0)
        *slot = value;
    else if (half == 0)
        *slot = make_score(value, eg_value(*slot));
    else
        *slot = make_score(mg_value(*slot), value);
}

const char *params_name(int k, char *buf, size_t size)
{
    int element, half;
    const ParamInfo *info = locate(k, &element, &half);
    if (!info) {
        snprintf(buf, size, "?");
        return buf;
    }
    char index[32] = "";
    if (info->rows > 1) {
        int per_row = info->count / info->rows;
        snprintf(index, sizeof index, "[%d][%d]", element / per_row, element % per_row);
    } else if (info->rows == 1) {
        snprintf(index, sizeof index, "[%d]", element);
    }
    snprintf(buf, size, "%s%s%s", info->name, index, half < 0 ? "" : half == 0 ? ".mg" : ".eg");
    return buf;
}

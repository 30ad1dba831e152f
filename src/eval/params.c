/* The evaluation weights (the one table a tuner rewrites), their descriptions, and
 * printing/parsing in the C-source format of that table. */
#include "eval/params.h"

#include <ctype.h>
#include <stdarg.h>
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
    P_TABLE(psqt, PARAM_SCORE, 8),
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
    P_ARRAY(pawn_connected, PARAM_SCORE, 8),
    P_SCALAR(pawn_supported, PARAM_SCORE),
    P_ARRAY(passed_rank, PARAM_SCORE, 8),
    P_ARRAY(passed_block_free, PARAM_SCORE, 8),
    P_ARRAY(passed_safe_push, PARAM_SCORE, 8),
    P_ARRAY(passed_safe_path, PARAM_SCORE, 8),
    P_ARRAY(passed_king_them, PARAM_SCORE, 8),
    P_ARRAY(passed_king_us, PARAM_SCORE, 8),
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
    P_TABLE(king_shelter, PARAM_SCORE, 8),
    P_TABLE(king_storm, PARAM_SCORE, 8),
    P_ARRAY(king_storm_blocked, PARAM_SCORE, 8),
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
const EvalParams DEFAULT_PARAMS = {
    .piece_value = {
        S(  82,   96), S( 330,  300), S( 350,  320), S( 470,  540), S( 990, 1000), S(   0,    0),
    },
    .psqt = {
        {
            S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
            S(  25,   40), S(  30,   38), S(  30,   34), S(  35,   30), S(  35,   30), S(  30,   34), S(  30,   38), S(  25,   40),
            S(  10,   25), S(  15,   24), S(  20,   20), S(  28,   16), S(  28,   16), S(  20,   20), S(  15,   24), S(  10,   25),
            S(  -2,   12), S(   5,   10), S(   8,    6), S(  20,    2), S(  20,    2), S(   8,    6), S(   5,   10), S(  -2,   12),
            S(  -6,    4), S(   0,    3), S(   5,    0), S(  16,   -3), S(  16,   -3), S(   5,    0), S(   0,    3), S(  -6,    4),
            S(  -8,   -2), S(  -3,   -2), S(   2,   -4), S(   6,   -4), S(   6,   -4), S(   2,   -4), S(  -3,   -2), S(  -8,   -2),
            S(  -8,   -2), S(  -2,   -2), S(  -4,    0), S( -12,    2), S( -12,    2), S(   6,    0), S(   8,   -2), S(  -6,   -2),
            S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
        },
        {
            S( -80,  -60), S( -45,  -40), S( -30,  -30), S( -25,  -25), S( -25,  -25), S( -30,  -30), S( -45,  -40), S( -80,  -60),
            S( -40,  -35), S( -20,  -15), S(   0,   -5), S(  10,    0), S(  10,    0), S(   0,   -5), S( -20,  -15), S( -40,  -35),
            S( -25,  -25), S(   5,   -5), S(  20,    8), S(  28,   12), S(  28,   12), S(  20,    8), S(   5,   -5), S( -25,  -25),
            S( -15,  -20), S(  10,    0), S(  22,   12), S(  30,   18), S(  30,   18), S(  22,   12), S(  10,    0), S( -15,  -20),
            S( -15,  -20), S(   5,   -2), S(  18,   10), S(  22,   15), S(  22,   15), S(  18,   10), S(   5,   -2), S( -15,  -20),
            S( -20,  -25), S(   0,   -8), S(  10,    0), S(  12,    8), S(  12,    8), S(  10,    0), S(   0,   -8), S( -20,  -25),
            S( -30,  -35), S( -18,  -20), S(  -2,  -10), S(   5,   -5), S(   5,   -5), S(  -2,  -10), S( -18,  -20), S( -30,  -35),
            S( -60,  -55), S( -25,  -40), S( -25,  -30), S( -15,  -25), S( -15,  -25), S( -25,  -30), S( -25,  -40), S( -60,  -55),
        },
        {
            S( -20,  -15), S( -10,  -10), S( -12,  -10), S( -15,   -8), S( -15,   -8), S( -12,  -10), S( -10,  -10), S( -20,  -15),
            S( -15,  -10), S(  -2,   -4), S(   0,    0), S(  -5,    0), S(  -5,    0), S(   0,    0), S(  -2,   -4), S( -15,  -10),
            S(  -8,   -6), S(   6,    0), S(  10,    4), S(  10,    5), S(  10,    5), S(  10,    4), S(   6,    0), S(  -8,   -6),
            S(  -5,   -6), S(   5,    2), S(   8,    5), S(  15,    8), S(  15,    8), S(   8,    5), S(   5,    2), S(  -5,   -6),
            S(  -4,   -6), S(   8,    0), S(  10,    5), S(  14,    8), S(  14,    8), S(  10,    5), S(   8,    0), S(  -4,   -6),
            S(   0,   -8), S(  10,   -2), S(  10,    2), S(   8,    4), S(   8,    4), S(  10,    2), S(  10,   -2), S(   0,   -8),
            S(   2,  -10), S(  12,   -6), S(   8,   -4), S(   4,   -2), S(   4,   -2), S(   8,   -4), S(  12,   -6), S(   2,  -10),
            S( -15,  -15), S(  -2,  -10), S(  -8,  -10), S(  -8,   -8), S(  -8,   -8), S(  -8,  -10), S(  -2,  -10), S( -15,  -15),
        },
        {
            S(  10,    8), S(  10,    8), S(  10,    8), S(  15,    6), S(  15,    6), S(  10,    8), S(  10,    8), S(  10,    8),
            S(  15,   12), S(  20,   12), S(  22,   12), S(  25,   10), S(  25,   10), S(  22,   12), S(  20,   12), S(  15,   12),
            S(   0,    4), S(   5,    4), S(   5,    4), S(   8,    2), S(   8,    2), S(   5,    4), S(   5,    4), S(   0,    4),
            S(  -5,    3), S(   0,    3), S(   2,    3), S(   5,    0), S(   5,    0), S(   2,    3), S(   0,    3), S(  -5,    3),
            S( -10,    2), S(  -5,    2), S(   0,    1), S(   2,    0), S(   2,    0), S(   0,    1), S(  -5,    2), S( -10,    2),
            S( -15,    0), S(  -8,    0), S(  -4,   -1), S(   0,   -2), S(   0,   -2), S(  -4,   -1), S(  -8,    0), S( -15,    0),
            S( -20,   -3), S( -10,   -3), S(  -5,   -3), S(  -2,   -4), S(  -2,   -4), S(  -5,   -3), S( -10,   -3), S( -20,   -3),
            S(  -8,   -5), S(  -5,   -2), S(   2,    0), S(   8,   -2), S(   8,   -2), S(   4,    0), S(  -5,   -2), S(  -8,   -5),
        },
        {
            S( -15,  -15), S(  -5,   -5), S(   0,    0), S(   5,    5), S(   5,    5), S(   0,    0), S(  -5,   -5), S( -15,  -15),
            S( -10,   -8), S( -15,    5), S(   0,   10), S(   0,   15), S(   0,   15), S(   0,   10), S( -15,    5), S( -10,   -8),
            S(  -5,   -5), S(   0,    8), S(   5,   15), S(   5,   20), S(   5,   20), S(   5,   15), S(   0,    8), S(  -5,   -5),
            S(  -8,   -5), S(  -5,   10), S(   0,   18), S(   2,   25), S(   2,   25), S(   0,   18), S(  -5,   10), S(  -8,   -5),
            S(  -5,  -10), S(  -5,    5), S(   0,   15), S(   0,   20), S(   0,   20), S(   0,   15), S(  -5,    5), S(  -5,  -10),
            S(  -8,  -15), S(   0,   -5), S(   0,    5), S(  -2,    5), S(  -2,    5), S(   0,    5), S(   0,   -5), S(  -8,  -15),
            S( -12,  -20), S(  -5,  -15), S(   5,  -10), S(   4,   -5), S(   4,   -5), S(   0,  -10), S(  -5,  -15), S( -12,  -20),
            S( -15,  -30), S( -12,  -25), S(  -8,  -20), S(   2,  -15), S(  -5,  -15), S( -12,  -20), S( -12,  -25), S( -15,  -30),
        },
        {
            S( -70,  -70), S( -70,  -40), S( -70,  -30), S( -70,  -25), S( -70,  -25), S( -70,  -30), S( -70,  -40), S( -70,  -70),
            S( -60,  -30), S( -60,   -5), S( -60,    5), S( -65,    8), S( -65,    8), S( -60,    5), S( -60,   -5), S( -60,  -30),
            S( -50,  -20), S( -50,   10), S( -55,   22), S( -60,   28), S( -60,   28), S( -55,   22), S( -50,   10), S( -50,  -20),
            S( -45,  -20), S( -45,   12), S( -50,   28), S( -60,   35), S( -60,   35), S( -50,   28), S( -45,   12), S( -45,  -20),
            S( -35,  -25), S( -40,    5), S( -45,   20), S( -55,   28), S( -55,   28), S( -45,   20), S( -40,    5), S( -35,  -25),
            S( -15,  -30), S( -20,   -5), S( -30,   10), S( -40,   15), S( -40,   15), S( -30,   10), S( -20,   -5), S( -15,  -30),
            S(  10,  -40), S(   8,  -15), S( -10,   -5), S( -30,    0), S( -30,    0), S( -15,   -5), S(  10,  -15), S(  15,  -40),
            S(  20,  -65), S(  35,  -40), S(  10,  -30), S( -20,  -25), S(   0,  -25), S( -10,  -30), S(  40,  -40), S(  25,  -65),
        },
    },
    .bishop_pair = S(  30,   55),
    .tempo = S(  18,    6),
    .mobility_knight = {
        S( -60,  -70), S( -35,  -45), S( -15,  -25), S(  -5,   -8), S(   5,    5),
        S(  12,   12), S(  20,   18), S(  27,   22), S(  33,   25),
    },
    .mobility_bishop = {
        S( -45,  -60), S( -25,  -40), S(  -8,  -22), S(   0,   -8), S(   8,    2),
        S(  15,   10), S(  20,   18), S(  24,   23), S(  27,   28), S(  31,   31),
        S(  35,   34), S(  39,   36), S(  43,   38), S(  48,   40),
    },
    .mobility_rook = {
        S( -55,  -75), S( -25,  -40), S( -12,  -18), S(  -6,   -5), S(  -2,    5),
        S(   0,   15), S(   4,   22), S(   8,   28), S(  12,   33), S(  15,   38),
        S(  18,   43), S(  20,   48), S(  22,   51), S(  25,   53), S(  28,   55),
    },
    .mobility_queen = {
        S( -30,  -50), S( -20,  -35), S( -12,  -25), S(  -8,  -15), S(  -4,   -8),
        S(   0,   -2), S(   3,    5), S(   6,   10), S(   9,   16), S(  11,   22),
        S(  13,   27), S(  15,   32), S(  17,   37), S(  19,   41), S(  21,   45),
        S(  23,   49), S(  24,   52), S(  25,   55), S(  26,   58), S(  27,   60),
        S(  28,   62), S(  29,   64), S(  30,   66), S(  31,   67), S(  32,   68),
        S(  33,   69), S(  34,   70), S(  35,   70),
    },
    .pawn_isolated = S(  -6,  -12),
    .pawn_doubled = S( -10,  -24),
    .pawn_backward = S(  -8,  -10),
    .pawn_weak_unopposed = S(  -8,  -10),
    .pawn_connected = {
        S(   0,    0), S(   3,    0), S(   6,    3), S(  10,    8), S(  20,   18), S(  38,   35), S(  65,   60), S(   0,    0),
    },
    .pawn_supported = S(   5,    4),
    .passed_rank = {
        S(   0,    0), S(   0,    8), S(   2,   12), S(   8,   22), S(  25,   45), S(  55,   90), S(  95,  150), S(   0,    0),
    },
    .passed_block_free = {
        S(   0,    0), S(   0,    0), S(   0,    2), S(   0,    5), S(   2,   10), S(   5,   20), S(  10,   35), S(   0,    0),
    },
    .passed_safe_push = {
        S(   0,    0), S(   0,    0), S(   0,    2), S(   2,    6), S(   5,   14), S(  10,   28), S(  20,   45), S(   0,    0),
    },
    .passed_safe_path = {
        S(   0,    0), S(   0,    0), S(   0,    4), S(   3,   10), S(   6,   22), S(  15,   45), S(  25,   75), S(   0,    0),
    },
    .passed_king_them = {
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    4), S(   0,   10), S(   0,   16), S(   0,   22), S(   0,    0),
    },
    .passed_king_us = {
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,   -2), S(   0,   -4), S(   0,   -7), S(   0,  -10), S(   0,    0),
    },
    .passed_unstoppable = S(   0,  700),
    .knight_outpost = S(  32,   20),
    .bishop_outpost = S(  18,    8),
    .knight_reachable_outpost = S(  12,    6),
    .minor_behind_pawn = S(   8,    2),
    .bishop_pawns_same_color = S(  -2,   -6),
    .bishop_long_diagonal = S(  15,    0),
    .rook_open_file = S(  40,   15),
    .rook_semiopen_file = S(  16,    8),
    .rook_on_seventh = S(  10,   30),
    .rook_trapped = S( -45,   -5),
    .king_shelter = {
        {
            S( -12,    0), S(  34,    0), S(  28,    0), S(  10,    0), S(   2,    0), S(  -4,    0), S(   0,    0), S(   0,    0),
        },
        {
            S( -25,    0), S(  40,    0), S(  24,    0), S(   0,    0), S(  -6,    0), S(  -8,    0), S(   0,    0), S(   0,    0),
        },
        {
            S( -10,    0), S(  36,    0), S(  14,    0), S(   2,    0), S(   0,    0), S(  -6,    0), S(   0,    0), S(   0,    0),
        },
        {
            S( -18,    0), S(  22,    0), S(  12,    0), S(  -8,    0), S( -12,    0), S( -14,    0), S(   0,    0), S(   0,    0),
        },
    },
    .king_storm = {
        {
            S(   4,    0), S( -30,    0), S( -35,    0), S( -18,    0), S(  -8,    0), S(  -4,    0), S(   0,    0), S(   0,    0),
        },
        {
            S(   2,    0), S( -40,    0), S( -45,    0), S( -22,    0), S( -10,    0), S(  -5,    0), S(   0,    0), S(   0,    0),
        },
        {
            S(   2,    0), S( -30,    0), S( -40,    0), S( -20,    0), S(  -8,    0), S(  -4,    0), S(   0,    0), S(   0,    0),
        },
        {
            S(   0,    0), S( -25,    0), S( -35,    0), S( -18,    0), S(  -8,    0), S(  -4,    0), S(   0,    0), S(   0,    0),
        },
    },
    .king_storm_blocked = {
        S(   0,    0), S(   0,    0), S( -30,    0), S(  -6,    0), S(  -2,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    },
    .king_pawn_distance = S(   0,   -9),
    .ks_attacker_weight = {
        0, 45, 35, 35, 20, 0,
    },
    .ks_zone_attack = 10,
    .ks_weak_square = 20,
    .ks_safe_check = {
        0, 100, 70, 110, 90, 0,
    },
    .ks_unsafe_check = 20,
    .ks_no_queen = -200,
    .ks_shelter = -6,
    .ks_offset = -30,
    .threat_by_pawn = {
        S(   0,    0), S(  55,   35), S(  55,   40), S(  70,   30), S(  60,   25), S(   0,    0),
    },
    .threat_by_minor = {
        S(   3,   18), S(  25,   30), S(  30,   35), S(  50,   70), S(  45,   90), S(   0,    0),
    },
    .threat_by_rook = {
        S(   2,   18), S(  20,   35), S(  20,   35), S(   0,   12), S(  45,   40), S(   0,    0),
    },
    .threat_by_king = S(  12,   40),
    .threat_hanging = S(  35,   20),
    .threat_pawn_push = S(  22,   18),
    .scale_ocb_bishops_only = 18,
    .scale_ocb_per_passed = 6,
    .scale_ocb_with_pieces = 46,
    .scale_pawnless_small_edge = 8,
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

/* ---- Printing as C source ---- */

static void print_value(const ParamInfo *info, int32_t v, FILE *out)
{
    if (info->kind == PARAM_SCORE)
        fprintf(out, "S(%4d, %4d)", mg_value(v), eg_value(v));
    else
        fprintf(out, "%d", v);
}

/* Prints elements [first, first + n) of a field, per_line to a line, at an indent. */
static void print_elements(const EvalParams *p, const ParamInfo *info, int first, int n,
                           const char *indent, FILE *out)
{
    for (int i = 0; i < n; i++) {
        fputs(i % info->per_line == 0 ? indent : " ", out);
        print_value(info, *param_slot((EvalParams *)p, info, first + i), out);
        fputc(',', out);
        if (i % info->per_line == info->per_line - 1 || i == n - 1)
            fputc('\n', out);
    }
}

void params_print_c(const EvalParams *p, FILE *out)
{
    fprintf(out, "const EvalParams DEFAULT_PARAMS = {\n");
    for (int i = 0; i < PARAM_INFO_COUNT; i++) {
        const ParamInfo *info = &PARAM_INFO[i];
        fprintf(out, "    .%s = ", info->name);
        if (info->rows == 0) {
            print_value(info, *param_slot((EvalParams *)p, info, 0), out);
            fprintf(out, ",\n");
        } else if (info->rows == 1) {
            fprintf(out, "{\n");
            print_elements(p, info, 0, info->count, "        ", out);
            fprintf(out, "    },\n");
        } else {
            int per_row = info->count / info->rows;
            fprintf(out, "{\n");
            for (int r = 0; r < info->rows; r++) {
                fprintf(out, "        {\n");
                print_elements(p, info, r * per_row, per_row, "            ", out);
                fprintf(out, "        },\n");
            }
            fprintf(out, "    },\n");
        }
    }
    fprintf(out, "};\n");
}

/* ---- Parsing the same format ---- */

typedef struct {
    const char *s;
    char *err;
    size_t err_size;
} Parser;

static bool parse_fail(Parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool parse_fail(Parser *ps, const char *fmt, ...)
{
    if (ps->err && ps->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err, ps->err_size, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Skips blanks and C comments. */
static void skip_space(Parser *ps)
{
    for (;;) {
        while (isspace((unsigned char)*ps->s))
            ps->s++;
        if (ps->s[0] == '/' && ps->s[1] == '*') {
            const char *end = strstr(ps->s + 2, "*/");
            ps->s = end ? end + 2 : ps->s + strlen(ps->s);
        } else if (ps->s[0] == '/' && ps->s[1] == '/') {
            while (*ps->s && *ps->s != '\n')
                ps->s++;
        } else {
            return;
        }
    }
}

static bool accept(Parser *ps, char c)
{
    skip_space(ps);
    if (*ps->s != c)
        return false;
    ps->s++;
    return true;
}

static bool parse_int(Parser *ps, int *out)
{
    skip_space(ps);
    char *end;
    long v = strtol(ps->s, &end, 10);
    if (end == ps->s)
        return parse_fail(ps, "number expected near \"%.20s\"", ps->s);
    if (v < -32768 || v > 32767)
        return parse_fail(ps, "value %ld out of range", v);
    ps->s = end;
    *out = (int)v;
    return true;
}

/* Reads one value (S(mg, eg) or an int) or a braced list of them, appending to vals. */
static bool parse_values(Parser *ps, ParamKind kind, int32_t *vals, int *n, int max, int depth)
{
    skip_space(ps);
    if (accept(ps, '{')) {
        if (depth > 2)
            return parse_fail(ps, "braces nested too deep");
        while (!accept(ps, '}')) {
            if (!parse_values(ps, kind, vals, n, max, depth + 1))
                return false;
            if (!accept(ps, ',') && (skip_space(ps), *ps->s != '}'))
                return parse_fail(ps, "',' or '}' expected near \"%.20s\"", ps->s);
        }
        return true;
    }
    if (*n >= max)
        return parse_fail(ps, "too many values");
    int mg = 0, eg = 0;
    if (kind == PARAM_SCORE) {
        if (!accept(ps, 'S') || !accept(ps, '('))
            return parse_fail(ps, "S(mg, eg) expected near \"%.20s\"", ps->s);
        if (!parse_int(ps, &mg) || !accept(ps, ',') || !parse_int(ps, &eg) || !accept(ps, ')'))
            return parse_fail(ps, "malformed S(mg, eg) near \"%.20s\"", ps->s);
        vals[(*n)++] = make_score(mg, eg);
    } else {
        if (!parse_int(ps, &mg))
            return false;
        vals[(*n)++] = mg;
    }
    return true;
}

bool params_parse(EvalParams *p, const char *text, char *err, size_t err_size)
{
    Parser ps = { text, err, err_size };
    EvalParams result = *p;
    int32_t vals[SQUARE_NB * PIECE_TYPE_NB];

    skip_space(&ps);
    if (*ps.s != '.') { /* optional "const EvalParams NAME = {" header */
        const char *brace = strchr(ps.s, '{');
        if (!brace)
            return parse_fail(&ps, "no parameter table found");
        ps.s = brace + 1;
    }
    for (;;) {
        skip_space(&ps);
        if (*ps.s == '\0' || *ps.s == '}')
            break;
        if (!accept(&ps, '.'))
            return parse_fail(&ps, "'.field' expected near \"%.20s\"", ps.s);
        const char *name = ps.s;
        while (isalnum((unsigned char)*ps.s) || *ps.s == '_')
            ps.s++;
        size_t len = (size_t)(ps.s - name);
        const ParamInfo *info = NULL;
        for (int i = 0; i < PARAM_INFO_COUNT; i++)
            if (strlen(PARAM_INFO[i].name) == len && !strncmp(PARAM_INFO[i].name, name, len))
                info = &PARAM_INFO[i];
        if (!info)
            return parse_fail(&ps, "unknown parameter \"%.*s\"", (int)(len > 40 ? 40 : len), name);
        if (!accept(&ps, '='))
            return parse_fail(&ps, "'=' expected after %s", info->name);
        int n = 0;
        if (!parse_values(&ps, info->kind, vals, &n, info->count, 0))
            return false;
        if (n != info->count)
            return parse_fail(&ps, "%s needs %d values, got %d", info->name, info->count, n);
        memcpy(param_slot(&result, info, 0), vals, sizeof(int32_t) * (size_t)n);
        if (!accept(&ps, ','))
            break;
    }
    *p = result;
    return true;
}

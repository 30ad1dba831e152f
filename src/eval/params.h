/* Every weight of the evaluation in one struct, so that a tuner can read, change and
 * print them back as C source. A Score packs a middlegame and an endgame value into one
 * int32 (eg in the high half), so both halves are added with one instruction. */
#ifndef SAAVEDRA_PARAMS_H
#define SAAVEDRA_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board/types.h"

typedef int32_t Score;

/* The cast through unsigned keeps the shift defined for negative eg values. */
#define S(mg, eg) ((Score)((uint32_t)(int32_t)(eg) * 65536u + (uint32_t)(int32_t)(mg)))

static inline int mg_value(Score s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int eg_value(Score s) { return (int16_t)(uint16_t)(((uint32_t)s + 0x8000u) >> 16); }
static inline Score make_score(int mg, int eg) { return S(mg, eg); }
/* Multiplies both halves (keep n small: the packed value must not overflow). */
static inline Score score_mul(Score s, int n)
{
    return make_score(mg_value(s) * n, eg_value(s) * n);
}

typedef struct {
    /* Material and piece-square tables. The tables are written as seen from White with
     * rank 8 first (index 0 = a8), so the source reads like a board. */
    Score piece_value[PIECE_TYPE_NB];
    Score psqt[PIECE_TYPE_NB][SQUARE_NB];
    Score bishop_pair;
    Score tempo;

    /* Mobility by the number of reachable squares in the mobility area. */
    Score mobility_knight[9];
    Score mobility_bishop[14];
    Score mobility_rook[15];
    Score mobility_queen[28];

    /* Pawn structure (relative rank index 0..7). */
    Score pawn_isolated;
    Score pawn_doubled;
    Score pawn_backward;
    Score pawn_weak_unopposed;   /* isolated or backward on a file without enemy pawns */
    Score pawn_connected[8];     /* supported or phalanx, by rank */
    Score pawn_supported;        /* per defending pawn */
    Score passed_rank[8];
    Score passed_block_free[8];  /* the square in front is empty */
    Score passed_safe_push[8];   /* ... and not attacked by the enemy */
    Score passed_safe_path[8];   /* no enemy piece or attack on the way to promotion */
    Score passed_king_them[8];   /* times the enemy king's distance to the stop square */
    Score passed_king_us[8];     /* times our king's distance to the stop square */
    Score passed_unstoppable;    /* pawn endgame: the enemy king is outside the square */

    /* Pieces. */
    Score knight_outpost;
    Score bishop_outpost;
    Score knight_reachable_outpost;
    Score minor_behind_pawn;
    Score bishop_pawns_same_color; /* per own pawn on the bishop's colour */
    Score bishop_long_diagonal;
    Score rook_open_file;
    Score rook_semiopen_file;
    Score rook_on_seventh;
    Score rook_trapped;

    /* King: pawn shelter and storm by the file's distance from the edge and the pawn's
     * rank relative to us (0 = no pawn), king-pawn distance, then the attack units. */
    Score king_shelter[4][8];
    Score king_storm[4][8];
    Score king_storm_blocked[8];
    Score king_pawn_distance;
    int ks_attacker_weight[PIECE_TYPE_NB];
    int ks_zone_attack;
    int ks_weak_square;
    int ks_safe_check[PIECE_TYPE_NB];
    int ks_unsafe_check;
    int ks_no_queen;
    int ks_shelter;      /* danger reduction per 8 cp of shelter (mg) */
    int ks_offset;

    /* Threats. */
    Score threat_by_pawn[PIECE_TYPE_NB];
    Score threat_by_minor[PIECE_TYPE_NB];
    Score threat_by_rook[PIECE_TYPE_NB];
    Score threat_by_king;
    Score threat_hanging;
    Score threat_pawn_push;

    /* Endgame scaling (out of 64) and mating gradients (centipawns). */
    int scale_ocb_bishops_only;
    int scale_ocb_per_passed;
    int scale_ocb_with_pieces;
    int scale_pawnless_small_edge;
    int mate_push_to_edge;
    int mate_kings_close;
    int mate_kbnk_corner;
} EvalParams;

typedef enum { PARAM_SCORE, PARAM_INT } ParamKind;

/* One field of EvalParams. count is the number of elements (2-D arrays flattened);
 * rows is 0 for a scalar, 1 for a 1-D array, the first dimension for a 2-D array. */
typedef struct {
    const char *name;
    size_t offset;
    int count;
    int rows;
    int per_line;  /* elements per printed line (4 for square tables: half a rank) */
    ParamKind kind;
} ParamInfo;

extern const ParamInfo PARAM_INFO[];
extern const int PARAM_INFO_COUNT;

/* The compiled-in defaults (the table in params.c that a tuner rewrites). */
extern const EvalParams DEFAULT_PARAMS;

/* The live weights and the tables derived from them (piece-square scores per coloured
 * piece, from the piece owner's point of view). Set by params_apply, which eval_init
 * calls at start-up; read-only afterwards (tools such as the tuner may re-apply, with no
 * search running, and must then clear the pawn tables). */
extern EvalParams PARAMS;
extern Score PSQT[PIECE_NB][SQUARE_NB];
void params_apply(const EvalParams *p);

/* Element i of a field as int32 (a Score or an int). */
static inline int32_t *param_slot(EvalParams *p, const ParamInfo *info, int i)
{
    return (int32_t *)((char *)p + info->offset) + i;
}

/* Number of scalar values a tuner can change (each Score counts twice). */
int params_tunable_count(void);
/* Value number k of params_tunable_count() (mg then eg of each Score), get and set. */
int params_get(const EvalParams *p, int k);
void params_set(EvalParams *p, int k, int value);
/* Human-readable name of tunable k, e.g. "psqt[3][12].eg"; writes into buf. */
const char *params_name(int k, char *buf, size_t size);

/* Prints p as the C designated initialiser used in params.c (fields in struct order). */
void params_print_c(const EvalParams *p, FILE *out);
/* Reads back text in the format of params_print_c (fields may be omitted or reordered:
 * omitted ones keep their value in *p). Returns false with a one-line reason on error,
 * leaving *p unchanged. */
bool params_parse(EvalParams *p, const char *text, char *err, size_t err_size);

#endif

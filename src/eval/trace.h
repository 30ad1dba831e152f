/* The evaluation's coefficient trace, for the tuner: how many times each weight of
 * EvalParams entered the score of a position, so that a tuner can recompute the score
 * (and its gradient) for any weights without calling the evaluation again.
 *
 * The trace is compiled in only when EVAL_TRACE is defined (the tuner's object set, see
 * `make tools` and docs/tuning.md); the engine's own objects have no trace code at all.
 * Evaluation functions that record take a trailing `TRACE_PARAM` argument and are called
 * with `TRACE_ARG(x)`; both expand to nothing in the engine build, and TRACE(...)
 * statements vanish with them.
 *
 * Layout: a "slot" is one int32 element of EvalParams (a Score or an int) in struct
 * order, so a trace mirrors the parameter table. The score is rebuilt from the trace as
 * (White's point of view, integer arithmetic as in evaluate.c):
 *   - special:   value = special_constant + sum special_coef[s] * w(s)   (w = eg half of a
 *                Score slot, or the int), nothing else applies;
 *   - otherwise: per side c, linear[c] (Score slots, both halves) plus the shelter of
 *                c's king (the best candidate by mg, plus king_pawn_distance * distance),
 *                minus, when danger_on[c], S(d*d/512, d/16) with
 *                d = sum danger[c][s] * w(s) + ks_shelter * mg(shelter) / 8, clamped to
 *                3000 and counted only when positive; then scale[strong side] and the
 *                phase taper. */
#ifndef SAAVEDRA_TRACE_H
#define SAAVEDRA_TRACE_H

#include <stdint.h>

#include "eval/params.h"

#define PARAM_SLOTS ((int)(sizeof(EvalParams) / sizeof(int32_t)))
/* Slot of a field of PARAMS, e.g. TSLOT(psqt[pt][sq]) (array indices may be variables). */
#define TSLOT(field) ((int)((const int32_t *)&PARAMS.field - (const int32_t *)&PARAMS))

#define TRACE_SHELTER_CANDIDATES 3
#define TRACE_SHELTER_TERMS 8

/* One shelter_storm() result: Score slots with their counts. */
typedef struct {
    int count;
    uint16_t slot[TRACE_SHELTER_TERMS];
    int16_t coef[TRACE_SHELTER_TERMS];
} ShelterCandidate;

typedef struct {
    int candidates;                     /* 1..3, in the order pawns_king_safety tries them */
    ShelterCandidate candidate[TRACE_SHELTER_CANDIDATES];
    int pawn_distance;                  /* coefficient of king_pawn_distance */
} ShelterTrace;

/* endgame_scale() for one strong side: constant + sum coef * int slot, min(., 64) when
 * clamp is set. */
typedef struct {
    int constant;
    int count;
    uint16_t slot[2];
    int16_t coef[2];
    bool clamp;
} ScaleTrace;

typedef struct {
    bool special;                        /* decided by the specialised endgame code */
    int special_constant;
    int16_t special_coef[PARAM_SLOTS];   /* White's point of view */
    int phase;
    int16_t linear[COLOR_NB][PARAM_SLOTS];
    ShelterTrace shelter[COLOR_NB];
    bool danger_on[COLOR_NB];            /* c's king is under enough attack to count */
    int16_t danger[COLOR_NB][PARAM_SLOTS];
    ScaleTrace scale[COLOR_NB];          /* the scale when c is the side ahead */
} EvalCoeffs;

#ifdef EVAL_TRACE
#define TRACE_PARAM , EvalCoeffs *trace
#define TRACE_ARG(x) , (x)
#define TRACE(...) do { if (trace) { __VA_ARGS__; } } while (0)
#else
#define TRACE_PARAM
#define TRACE_ARG(x)
#define TRACE(...) ((void)0)
#endif

/* Adds n to the count of a Score field in c's terms. */
#define TRACE_SCORE(c, field, n) TRACE(trace->linear[c][TSLOT(field)] += (int16_t)(n))
/* Adds n to the count of an int field in the danger against c's king. */
#define TRACE_DANGER(c, field, n) TRACE(trace->danger[c][TSLOT(field)] += (int16_t)(n))

#endif

/* A position as the tuner keeps it: the evaluation's coefficient trace (eval/trace.h)
 * of its quiet leaf, packed sparsely, from which the score and its gradient are rebuilt
 * for any weights. Weights are a vector theta of params_tunable_count() doubles (mg and
 * eg of each Score, then each int, in EvalParams order, see params.h).
 *
 * Two evaluations of a packed position:
 *   tune_eval_exact  integer arithmetic as evaluate() does it, for weights in an
 *                    EvalParams: equal to evaluate() of the leaf (tests check it);
 *   tune_eval        the same formula in doubles without rounding (a smooth function
 *                    almost everywhere), optionally adding factor * d(score)/d(theta) to
 *                    a gradient; the king-danger square and the scale factor's product
 *                    with the endgame score enter by the chain rule. */
#ifndef SAAVEDRA_COEFFS_H
#define SAAVEDRA_COEFFS_H

#include <stddef.h>
#include <stdint.h>

#include "eval/trace.h"

/* Slot -> tunable indices, built once (read-only afterwards). */
typedef struct {
    int count;                 /* params_tunable_count() */
    int mg[PARAM_SLOTS];       /* tunable of the slot (the int itself for int slots) */
    int eg[PARAM_SLOTS];       /* tunable of the eg half, -1 for int slots */
    int ks_shelter;            /* slots used by the non-linear terms */
    int king_pawn_distance;
} TuneLayout;

void tune_layout_init(TuneLayout *layout);
/* theta from weights and back (rounded to the nearest integer). */
void tune_theta_from_params(const TuneLayout *layout, const EvalParams *p, double *theta);
void tune_params_from_theta(const TuneLayout *layout, const double *theta, EvalParams *p);

typedef struct {
    uint16_t slot;
    int16_t coef;
} TuneCoef;

enum { TP_SPECIAL = 1, TP_DANGER_WHITE = 2, TP_DANGER_BLACK = 4, TP_SCALE_CLAMP_WHITE = 8,
       TP_SCALE_CLAMP_BLACK = 16 };

/* The header of one packed position; its coefficients are consecutive in a pool:
 * linear, then per colour the shelter candidates and the danger terms, then both
 * scales' terms, then the special terms. */
typedef struct {
    uint32_t start;
    uint16_t n_linear;         /* White's minus Black's count per Score slot */
    uint16_t n_special;
    int32_t special_constant;
    uint8_t flags;
    uint8_t phase;
    uint8_t n_candidates[COLOR_NB];
    uint8_t candidate_length[COLOR_NB][TRACE_SHELTER_CANDIDATES];
    uint8_t pawn_distance[COLOR_NB];
    uint8_t n_danger[COLOR_NB];
    uint8_t scale_constant[COLOR_NB];
    uint8_t n_scale[COLOR_NB];
    float result;              /* 1 White won, 0.5 draw, 0 Black won */
} TunePos;

/* Number of pool entries pack would write for this trace. */
size_t tune_pack_size(const EvalCoeffs *trace);
/* Packs a trace; pool[tp->start ...] must have room for tune_pack_size(trace). */
void tune_pack(const EvalCoeffs *trace, float result, TunePos *tp, TuneCoef *pool, uint32_t start);

/* Score from White's point of view with the weights p, computed as evaluate() does. */
int tune_eval_exact(const TunePos *tp, const TuneCoef *pool, const TuneLayout *layout,
                    const EvalParams *p);

/* Score from White's point of view for theta; when grad is not NULL, adds
 * factor * d(score)/d(theta[k]) to grad[k]. */
double tune_eval(const TunePos *tp, const TuneCoef *pool, const TuneLayout *layout,
                 const double *theta, double *grad, double factor);

#endif

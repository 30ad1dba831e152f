/* The scale a net's output is quantised at. The search's margins (futility, razoring,
 * null move, aspiration windows) were tuned on the hand-written evaluation, whose slope
 * against the search score is well below 1 (static scores understate what a search
 * finds); a net trained on search scores and results has a larger one, and played 33 Elo
 * worse for it. So a net is brought to the hand-written evaluation's slope, measured on
 * the same positions (docs/nnue.md). */
#ifndef SAAVEDRA_NNUE_SCALE_H
#define SAAVEDRA_NNUE_SCALE_H

#include "nnue/train/nnue_data.h"
#include "nnue/train/nnue_model.h"

/* Slopes are least-squares fits through the origin of an evaluation against the search
 * score over the positions of set whose score is within this (where the search decides
 * between moves, not how won a won game is). */
#define NNUE_SLOPE_WINDOW 1000

/* A running least-squares fit of evaluations against search scores. */
typedef struct {
    double es, ss;  /* sums of eval * score and score^2, within the window */
} SlopeFit;

void slope_fit_add(SlopeFit *f, double eval, int score);
double slope_fit_value(const SlopeFit *f); /* NAN when no position qualified */

/* The hand-written evaluation's slope over set (NAN when no position qualifies). */
double nnue_hce_slope(const PosSet *set);
/* The float model's slope over set. */
double nnue_model_slope(const NnueModel *model, const PosSet *set);

#endif

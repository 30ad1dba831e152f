/* Texel tuning proper: the loss of a training set for weights theta (mean over the
 * positions of a function of the predicted result sigmoid(K * score) and the game's
 * result), its gradient, the fit of the sigmoid's scale K, and the optimisers. */
#ifndef SAAVEDRA_OPTIMIZE_H
#define SAAVEDRA_OPTIMIZE_H

#include "tune/dataset.h"

typedef enum { OBJ_MSQ, OBJ_LOG, OBJ_MSQLOG } TuneObjective;
typedef enum { OPT_ADAM, OPT_ADAGRAD, OPT_ADAPTIVE } TuneOptimizer;

/* Predicted result 1 / (1 + 10^(-K * score / 400)). */
double tune_sigmoid(double k, double score);

/* Mean loss over the set; when grad is not NULL it receives the mean gradient (it is
 * overwritten). threads >= 1. */
double tune_loss(const TuneSet *set, const TuneLayout *layout, const double *theta, double k,
                 TuneObjective objective, double *grad, int threads);

/* The K in [0.05, 10] that minimises the loss for theta (golden-section search). */
double tune_fit_k(const TuneSet *set, const TuneLayout *layout, const double *theta,
                  TuneObjective objective, int threads);

/* Optimiser state for n weights. */
typedef struct {
    TuneOptimizer kind;
    int n;
    double rate;
    long step;
    double *m, *v, *prev, *gain; /* moments (adam), squares (adagrad), momentum and gains
                                  * (adaptive) */
    double scale;                /* adaptive: RMS of the first gradient */
} Optimizer;

/* Default learning rate of each method (centipawns per step for a unit-size step). */
double optimizer_default_rate(TuneOptimizer kind);
bool optimizer_init(Optimizer *o, TuneOptimizer kind, int n, double rate);
void optimizer_free(Optimizer *o);
/* One step of theta against the gradient. */
void optimizer_step(Optimizer *o, double *theta, const double *grad);

#endif

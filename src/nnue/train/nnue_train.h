/* Training the net (docs/nnue.md): epochs of shuffled mini-batches, the gradient computed
 * by several threads on slices of each batch, Adam, and the held-out loss. */
#ifndef SAAVEDRA_NNUE_TRAIN_H
#define SAAVEDRA_NNUE_TRAIN_H

#include "nnue/train/nnue_data.h"
#include "nnue/train/nnue_model.h"

typedef struct {
    int threads;
    size_t batch;       /* positions per Adam step */
    float lr;           /* this epoch's learning rate */
    float lambda;       /* weight of the search score against the game result */
    float wd;           /* decoupled weight decay (nnue_model_adam) */
    bool mirror;        /* each position seen mirrored a<->h half of the time, at random */
    /* Called after each batch (may be NULL): positions done of total, mean loss so far. */
    void (*progress)(void *ctx, size_t done, size_t total, double loss);
    void *ctx;
} NnueTrainConfig;

/* One pass over set (shuffled in place with rng); returns the mean training loss. */
double nnue_train_epoch(NnueModel *model, PosSet *set, const NnueTrainConfig *cfg, uint64_t *rng);
/* The mean loss over set. */
double nnue_mean_loss(const NnueModel *model, const PosSet *set, float lambda, int threads);

/* The learning rate of epoch e (0-based) of epochs: a cosine from lr down to lr / 100. */
float nnue_schedule(float lr, int e, int epochs);
/* The lambda of epoch e (0-based) of epochs: linear from first to last (first itself,
 * exactly, when the two are equal). */
float nnue_lambda_at(float first, float last, int e, int epochs);

#endif

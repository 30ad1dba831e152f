/* The training loop (nnue_train.h). */
#include "nnue/train/nnue_train.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fork_join.h"
#include "util/random.h"

#define MAX_THREADS 64

typedef struct {
    const NnueModel *model;
    const PackedPos *pos;
    size_t n;
    float lambda;
    float *grad;        /* NULL: the loss only */
    double loss;
} Slice;

static void *run_slice(void *arg)
{
    Slice *s = arg;
    if (s->grad) {
        memset(s->grad, 0, NNUE_PARAMS * sizeof(float));
        s->loss = nnue_model_gradient(s->model, s->pos, s->n, s->lambda, s->grad);
    } else
        s->loss = nnue_model_loss(s->model, s->pos, s->n, s->lambda);
    return NULL;
}

/* Runs the slices of pos[0..n) on threads; returns the summed loss. */
static double run_parallel(const NnueModel *model, const PackedPos *pos, size_t n, float lambda,
                           int threads, float **grads)
{
    Slice slices[MAX_THREADS];
    size_t per = (n + (size_t)threads - 1) / (size_t)threads;
    for (int t = 0; t < threads; t++) {
        size_t from = per * (size_t)t < n ? per * (size_t)t : n,
               to = from + per < n ? from + per : n;
        slices[t] = (Slice){ model, pos + from, to - from, lambda, grads ? grads[t] : NULL, 0 };
    }
    fork_join(run_slice, slices, sizeof slices[0], threads);
    double loss = 0;
    for (int t = 0; t < threads; t++)
        loss += slices[t].loss;
    return loss;
}

double nnue_train_epoch(NnueModel *model, PosSet *set, const NnueTrainConfig *cfg, uint64_t *rng)
{
    int threads = cfg->threads < 1 ? 1 : cfg->threads > MAX_THREADS ? MAX_THREADS : cfg->threads;
    for (size_t i = set->count; i > 1; i--) {
        size_t j = splitmix64(rng) % i;
        PackedPos tmp = set->pos[i - 1];
        set->pos[i - 1] = set->pos[j];
        set->pos[j] = tmp;
    }
    /* The evaluation is (nearly: castling rights aside, which the net does not see)
     * symmetric under swapping the a- and h-files, so a mirrored board is another
     * example at no cost in data. */
    for (size_t i = 0; i < set->count; i++)
        set->pos[i].mirrored = cfg->mirror ? (uint8_t)(splitmix64(rng) & 1) : 0;
    float *grads[MAX_THREADS];
    for (int t = 0; t < threads; t++)
        if (!(grads[t] = malloc(NNUE_PARAMS * sizeof(float)))) {
            while (t--)
                free(grads[t]);
            return NAN;
        }
    double loss = 0;
    for (size_t at = 0; at < set->count; at += cfg->batch) {
        size_t n = set->count - at < cfg->batch ? set->count - at : cfg->batch;
        loss += run_parallel(model, set->pos + at, n, cfg->lambda, threads, grads);
        for (int t = 1; t < threads; t++)
            for (int i = 0; i < NNUE_PARAMS; i++)
                grads[0][i] += grads[t][i];
        nnue_model_adam(model, grads[0], n, cfg->lr, cfg->wd);
        if (cfg->progress)
            cfg->progress(cfg->ctx, at + n, set->count, loss / (double)(at + n));
    }
    for (int t = 0; t < threads; t++)
        free(grads[t]);
    return loss / (double)set->count;
}

double nnue_mean_loss(const NnueModel *model, const PosSet *set, float lambda, int threads)
{
    if (set->count == 0)
        return NAN;
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    return run_parallel(model, set->pos, set->count, lambda, threads, NULL) / (double)set->count;
}

float nnue_schedule(float lr, int e, int epochs)
{
    float low = lr / 100, x = epochs > 1 ? (float)e / (float)(epochs - 1) : 0;
    return low + 0.5f * (lr - low) * (1 + cosf(3.14159265f * x));
}

float nnue_lambda_at(float first, float last, int e, int epochs)
{
    float x = epochs > 1 ? (float)e / (float)(epochs - 1) : 0;
    return first + (last - first) * x;
}

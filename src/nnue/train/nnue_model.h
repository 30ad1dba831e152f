/* The net in floating point, as the trainer sees it (docs/nnue.md): the same shape as the
 * engine's (nnue/network.h) with float weights, the loss and its gradient, Adam, the
 * quantisation to the engine's integers, and checkpoints. */
#ifndef SAAVEDRA_NNUE_MODEL_H
#define SAAVEDRA_NNUE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue/network.h"
#include "nnue/train/nnue_data.h"

/* Parameter layout in one array: w1[NNUE_INPUTS][NNUE_HIDDEN], b1[NNUE_HIDDEN],
 * w2[NNUE_BUCKETS][2 * NNUE_HIDDEN], b2[NNUE_BUCKETS]. */
#define NNUE_W1 0
#define NNUE_B1 (NNUE_W1 + NNUE_INPUTS * NNUE_HIDDEN)
#define NNUE_W2 (NNUE_B1 + NNUE_HIDDEN)
#define NNUE_B2 (NNUE_W2 + NNUE_BUCKETS * 2 * NNUE_HIDDEN)
#define NNUE_PARAMS (NNUE_B2 + NNUE_BUCKETS)

/* Output weights stay within what the engine's 16-bit output layer takes (127 / QB). */
#define NNUE_W2_LIMIT (127.0f / NNUE_QB)

typedef struct {
    NnueMapping mapping; /* the inputs' mapping (network.h): plain or HM */
    float *theta;       /* the parameters */
    float *m, *v;       /* Adam's moments */
    long step;          /* Adam steps taken */
    int epoch;          /* epochs completed */
    /* The run's lowest validation loss so far, its epoch (0: none yet) and the id of the
     * net quantised then: checkpoints keep them, so that a resumed run chooses its best
     * epoch (nnuetrain -best) as an uninterrupted one would. */
    int best_epoch;
    uint32_t best_id;
    double best_loss;
} NnueModel;

/* Random initial weights from seed (deterministic), plain mapping (set mapping after for
 * another). False when out of memory. */
bool nnue_model_init(NnueModel *model, uint64_t seed);
/* The model of an engine net (nnue_model_quantize's inverse at scale 1, the net's
 * mapping) with Adam's state at zero, so that training can continue from a net that is
 * only kept quantised. False when out of memory. */
bool nnue_model_from_network(NnueModel *model, const Network *net);
void nnue_model_free(NnueModel *model);

/* The training target of p: lambda times the search score through the sigmoid plus
 * (1 - lambda) times the result (1, 0.5, 0). */
float nnue_target(const PackedPos *p, float lambda);

/* The net's output in centipawns (side to move) for p. */
float nnue_model_eval(const NnueModel *model, const PackedPos *p);

/* Adds the gradient of the summed loss over pos[0..n) to grad (NNUE_PARAMS floats) and
 * returns the summed loss: (sigmoid(out) - target)^2. */
double nnue_model_gradient(const NnueModel *model, const PackedPos *pos, size_t n, float lambda,
                           float *grad);
/* The summed loss over pos[0..n) without a gradient. */
double nnue_model_loss(const NnueModel *model, const PackedPos *pos, size_t n, float lambda);

/* One Adam step with the gradient averaged over batch positions, learning rate lr; the
 * output weights are then kept within +-NNUE_W2_LIMIT. Weight decay wd is decoupled from
 * the gradient (AdamW): the weights, not the biases, shrink by lr * wd of themselves, so
 * that the decay does not pass through Adam's per-parameter scaling. */
void nnue_model_adam(NnueModel *model, const float *grad, size_t batch, float lr, float wd);

/* The engine's integer net from the model (rounded, clamped; the model's mapping), its
 * output multiplied by scale (1: the model's own; nnue_scale.h). */
void nnue_model_quantize(const NnueModel *model, Network *out, float scale);

/* Checkpoints: the parameters, the moments and the counters, written whole (temporary
 * file, renamed). Load refuses a file of another shape or with a bad checksum; it reads
 * the first layout too (no best epoch: none yet). */
bool nnue_model_save(const NnueModel *model, const char *path, char *err, size_t err_size);
bool nnue_model_load(NnueModel *model, const char *path, char *err, size_t err_size);

#endif

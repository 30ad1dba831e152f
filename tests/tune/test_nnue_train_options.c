/* The trainer's options beyond plain Adam (src/nnue/train/): decoupled weight decay
 * shrinks the weights and leaves the biases alone, lambda ramps linearly over the epochs
 * (and stays exactly itself without a ramp, so old recipes reproduce), and checkpoints
 * keep the best epoch (nnuetrain -best) and the input mapping while the first layout
 * still loads (as a plain model). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnue/train/nnue_model.h"
#include "util/crc32.h"
#include "nnue/train/nnue_train.h"
#include "nnue_positions.h"
#include "test.h"

static bool is_bias(int i)
{
    return (i >= NNUE_B1 && i < NNUE_W2) || i >= NNUE_B2;
}

TEST(nnue_weight_decay_shrinks_weights_not_biases)
{
    NnueModel model;
    float *before = malloc(NNUE_PARAMS * sizeof(float)), *grad = calloc(NNUE_PARAMS, sizeof(float));
    if (!CHECK(before && grad && nnue_model_init(&model, 5))) {
        free(before);
        free(grad);
        return;
    }
    for (int i = 0; i < NNUE_PARAMS; i++)
        if (is_bias(i))
            model.theta[i] = 0.25f;
    memcpy(before, model.theta, NNUE_PARAMS * sizeof(float));
    /* No gradient: Adam moves nothing, so only the decay acts. */
    nnue_model_adam(&model, grad, 1, 0.01f, 0.0f);
    CHECK(!memcmp(before, model.theta, NNUE_PARAMS * sizeof(float)));
    nnue_model_adam(&model, grad, 1, 0.01f, 0.5f);
    float keep = 1 - 0.01f * 0.5f;
    long wrong = 0;
    for (int i = 0; i < NNUE_PARAMS; i++)
        wrong += model.theta[i] != (is_bias(i) ? before[i] : before[i] * keep);
    CHECK_MSG(wrong == 0, "%ld parameters not as decayed", wrong);
    nnue_model_free(&model);
    free(before);
    free(grad);
}

static double weight_norm(const NnueModel *m)
{
    double sum = 0;
    for (int i = 0; i < NNUE_PARAMS; i++)
        if (!is_bias(i))
            sum += (double)m->theta[i] * m->theta[i];
    return sqrt(sum);
}

TEST(nnue_weight_decay_gives_smaller_weights_in_training)
{
    PosSet set = { 0 };
    nnue_test_material_set(&set, 2000, 21);
    double norm[2];
    for (int k = 0; k < 2; k++) {
        NnueModel model;
        if (!CHECK(nnue_model_init(&model, 9)))
            return;
        uint64_t rng = 4;
        for (int e = 0; e < 2; e++) {
            NnueTrainConfig cfg = { .threads = 2, .batch = 128, .lr = 0.005f, .lambda = 1.0f, .wd = k ? 1.0f : 0,
                                    .mirror = true };
            nnue_train_epoch(&model, &set, &cfg, &rng);
        }
        norm[k] = weight_norm(&model);
        nnue_model_free(&model);
    }
    /* The two runs differ only in the decay: 32 steps at lr 0.005 shrink the weights by
     * 0.995^32, about 15%, against what training adds to them (seen: 10% less norm). */
    CHECK_MSG(norm[1] < 0.95 * norm[0], "weight norm %.3f without decay, %.3f with", norm[0], norm[1]);
    fprintf(stderr, "weight decay: weight norm %.3f without, %.3f with\n", norm[0], norm[1]);
    posset_free(&set);
}

TEST(nnue_lambda_ramps_linearly_over_the_epochs)
{
    for (int e = 0; e < 15; e++)
        CHECK(nnue_lambda_at(0.75f, 0.75f, e, 15) == 0.75f);
    CHECK(nnue_lambda_at(1.0f, 0.0f, 0, 3) == 1.0f);
    CHECK(fabsf(nnue_lambda_at(1.0f, 0.0f, 1, 3) - 0.5f) < 1e-6f);
    CHECK(nnue_lambda_at(1.0f, 0.0f, 2, 3) == 0.0f);
    CHECK(fabsf(nnue_lambda_at(0.5f, 1.0f, 2, 5) - 0.75f) < 1e-6f);
    CHECK(nnue_lambda_at(0.6f, 0.2f, 0, 1) == 0.6f);
    /* The target moves with it: a won position scored at 0 cp. */
    PackedPos p = { .score = 0, .result = 2 };
    CHECK(fabsf(nnue_target(&p, nnue_lambda_at(1.0f, 0.0f, 0, 3)) - 0.5f) < 1e-6f);
    CHECK(fabsf(nnue_target(&p, nnue_lambda_at(1.0f, 0.0f, 1, 3)) - 0.75f) < 1e-6f);
    CHECK(fabsf(nnue_target(&p, nnue_lambda_at(1.0f, 0.0f, 2, 3)) - 1.0f) < 1e-6f);
}

TEST(nnue_checkpoints_keep_the_best_epoch_and_the_first_layout_loads)
{
    NnueModel a, b;
    if (!CHECK(nnue_model_init(&a, 12)))
        return;
    CHECK(a.best_epoch == 0 && isinf(a.best_loss));
    a.step = 77, a.epoch = 6, a.best_epoch = 4, a.best_id = 0xdeadbeef, a.best_loss = 0.0123;
    a.mapping = NNUE_MAP_HM;
    char path[] = "/tmp/saavedra-ckpt-XXXXXX", err[300];
    close(mkstemp(path));
    if (CHECK(nnue_model_save(&a, path, err, sizeof err)) && CHECK(nnue_model_load(&b, path, err, sizeof err))) {
        CHECK(b.step == 77 && b.epoch == 6 && b.best_epoch == 4 && b.best_id == 0xdeadbeef && b.best_loss == 0.0123);
        CHECK(b.mapping == NNUE_MAP_HM);
        CHECK(!memcmp(a.theta, b.theta, NNUE_PARAMS * sizeof(float)));
        nnue_model_free(&b);
    }
    /* The first layout: magic, parameter count, step, epoch, the three arrays, CRC-32. */
    FILE *f = fopen(path, "wb");
    uint32_t params = NNUE_PARAMS, crc = 0;
    int64_t step = 5;
    int32_t epoch = 2;
    const void *parts[] = { "SVNNCKPT", &params, &step, &epoch, a.theta, a.m, a.v };
    size_t sizes[] = { 8, 4, 8, 4, NNUE_PARAMS * 4, NNUE_PARAMS * 4, NNUE_PARAMS * 4 };
    for (int i = 0; i < 7; i++) {
        fwrite(parts[i], 1, sizes[i], f);
        crc = crc32_update(crc, parts[i], sizes[i]);
    }
    fwrite(&crc, 4, 1, f);
    fclose(f);
    if (CHECK(nnue_model_load(&b, path, err, sizeof err))) {
        CHECK(b.step == 5 && b.epoch == 2 && b.best_epoch == 0 && isinf(b.best_loss) && b.mapping == NNUE_MAP_PLAIN);
        CHECK(!memcmp(a.theta, b.theta, NNUE_PARAMS * sizeof(float)));
        nnue_model_free(&b);
    }
    /* Not a checkpoint at all: refused, and the model left empty (safe to free). */
    f = fopen(path, "wb");
    fputs("SVNNCKPX and nothing that follows", f);
    fclose(f);
    CHECK(!nnue_model_load(&b, path, err, sizeof err) && !b.theta);
    nnue_model_free(&b);
    remove(path);
    nnue_model_free(&a);
}

/* The trainer with the HM input mapping (nnue/train/, docs/nnue.md): the float model of
 * an HM net computes what the engine computes with that net (and not what the same
 * weights give in the plain mapping), and an HM model learns the material balance and
 * quantises to an engine net that scores like it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "nnue/nnue_eval.h"
#include "nnue/train/nnue_model.h"
#include "nnue/train/nnue_train.h"
#include "nnue_positions.h"
#include "test.h"
#include "util/platform.h"
#include "util/random.h"

/* A net of random integers (the engine's domain, so the float model holds it exactly)
 * whose activations vary: feature weights within +-60, biases -40..160 (of 255). */
static Network *random_int_net(uint64_t seed, NnueMapping mapping)
{
    Network *net = pf_aligned_alloc(64, sizeof *net);
    if (!net)
        return NULL;
    uint64_t rng = seed;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            net->ft_weights[f][i] = (int16_t)((int)(splitmix64(&rng) % 121) - 60);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->ft_bias[i] = (int16_t)((int)(splitmix64(&rng) % 201) - 40);
    for (int k = 0; k < NNUE_BUCKETS; k++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            net->out_weights[k][i] = (int16_t)((int)(splitmix64(&rng) % 255) - 127);
        net->out_bias[k] = (int32_t)(splitmix64(&rng) % 100001) - 50000;
    }
    net->mapping = mapping;
    net->id = 0;
    return net;
}

/* The engine's score of a packed position with net (a refresh from its board). */
static bool engine_score(const Network *net, const PackedPos *p, int *score)
{
    static Position pos;
    static int16_t acc[COLOR_NB][NNUE_HIDDEN];
    if (!packed_position(p, &pos))
        return false;
    nnue_refresh(net, &pos, acc);
    *score = nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc, pos.side, popcount(pieces(&pos)));
    return true;
}

TEST(nnue_hm_model_computes_what_the_engine_does)
{
    Network *net = random_int_net(31, NNUE_MAP_HM);
    NnueModel model;
    if (!CHECK(net) || !CHECK(nnue_model_from_network(&model, net))) {
        pf_aligned_free(net);
        return;
    }
    CHECK(model.mapping == NNUE_MAP_HM);
    PosSet set = { 0 };
    nnue_test_material_set(&set, 600, 32);
    double worst = 0;
    long other = 0, n = 0;
    for (size_t i = 0; i < set.count; i++) {
        int engine;
        if (!engine_score(net, &set.pos[i], &engine))
            continue;
        model.mapping = NNUE_MAP_HM;
        double diff = fabs(engine - nnue_model_eval(&model, &set.pos[i]));
        worst = diff > worst ? diff : worst;
        /* The same weights in the plain mapping: another function wherever a king
         * stands on files e-h (most positions). */
        model.mapping = NNUE_MAP_PLAIN;
        other += fabs(engine - nnue_model_eval(&model, &set.pos[i])) > 5;
        n++;
    }
    /* Only the engine's integer divisions differ from the float model: under 2 cp. */
    CHECK_MSG(n > 500 && worst < 2, "%ld positions, worst difference %.2f cp", n, worst);
    CHECK_MSG(other > n / 4, "the plain mapping differs from the HM one in only %ld of %ld positions", other, n);
    posset_free(&set);
    nnue_model_free(&model);
    pf_aligned_free(net);
}

TEST(nnue_hm_model_learns_and_quantises_to_an_hm_net)
{
    PosSet train = { 0 }, valid = { 0 };
    nnue_test_material_set(&train, 8000, 41);
    nnue_test_material_set(&valid, 1000, 42);
    NnueModel model;
    Network *net = pf_aligned_alloc(64, sizeof *net);
    if (!CHECK(net) || !CHECK(nnue_model_init(&model, 43))) {
        pf_aligned_free(net);
        return;
    }
    model.mapping = NNUE_MAP_HM;
    double before = nnue_mean_loss(&model, &valid, 1.0f, 2);
    uint64_t rng = 44;
    for (int e = 0; e < 5; e++) {
        NnueTrainConfig cfg = { .threads = 2, .batch = 128, .lr = nnue_schedule(0.005f, e, 5), .lambda = 1.0f };
        nnue_train_epoch(&model, &train, &cfg, &rng);
    }
    double after = nnue_mean_loss(&model, &valid, 1.0f, 2);
    CHECK_MSG(after < before / 5, "validation loss %.5f -> %.5f", before, after);
    nnue_model_quantize(&model, net, 1.0f);
    CHECK(net->mapping == NNUE_MAP_HM);
    double sum = 0;
    long n = 0;
    for (size_t i = 0; i < valid.count; i++) {
        int engine;
        if (engine_score(net, &valid.pos[i], &engine)) {
            sum += fabs(engine - nnue_model_eval(&model, &valid.pos[i]));
            n++;
        }
    }
    /* The plain model's tolerance (test_nnue_train.c): rounding to 1/64 and 1/255. */
    CHECK_MSG(n > 900 && sum / (double)n <= 16, "%ld positions, mean difference %.2f cp", n, n ? sum / (double)n : 0);
    fprintf(stderr, "HM model: validation loss %.5f -> %.5f; quantised against float %.2f cp\n", before, after,
            n ? sum / (double)n : 0);
    posset_free(&train);
    posset_free(&valid);
    nnue_model_free(&model);
    pf_aligned_free(net);
}

/* The net trainer (src/nnue/train/): it learns a known function (the material balance)
 * from positions, the quantised net in the engine gives the float model's score within a
 * stated tolerance, checkpoints round-trip and damaged ones are refused, and the data
 * loader reads training-data files, skips a damaged record and holds out whole games. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "formats/movecode_game.h"
#include "formats/traindata.h"
#include "nnue/nnue_eval.h"
#include "nnue_positions.h"
#include "test.h"
#include "nnue/train/nnue_data.h"
#include "nnue/train/nnue_model.h"
#include "nnue/train/nnue_scale.h"
#include "nnue/train/nnue_train.h"
#include "util/random.h"

static double mean_abs_error(const NnueModel *model, const PosSet *set)
{
    double sum = 0;
    for (size_t i = 0; i < set->count; i++)
        sum += fabs(nnue_model_eval(model, &set->pos[i]) - set->pos[i].score);
    return sum / (double)set->count;
}

static NnueModel trained;
static bool have_trained;

TEST(nnue_trainer_learns_the_material_balance)
{
    PosSet train = { 0 }, valid = { 0 };
    nnue_test_material_set(&train, 16000, 1);
    nnue_test_material_set(&valid, 2000, 2);
    if (!CHECK(nnue_model_init(&trained, 7)))
        return;
    double before = mean_abs_error(&trained, &valid);
    double loss_before = nnue_mean_loss(&trained, &valid, 1.0f, 2);
    uint64_t rng = 3;
    for (int e = 0; e < 10; e++) {
        NnueTrainConfig cfg = { .threads = 2, .batch = 128, .lr = nnue_schedule(0.005f, e, 10),
                                .lambda = 1.0f, .mirror = true };
        nnue_train_epoch(&trained, &train, &cfg, &rng);
    }
    double after = mean_abs_error(&trained, &valid);
    double loss_after = nnue_mean_loss(&trained, &valid, 1.0f, 2);
    /* Before: about the mean size of the balance; after: a fraction of a pawn. */
    CHECK_MSG(after < 60 && after < before / 4, "mean error %.1f cp before, %.1f cp after", before, after);
    CHECK_MSG(loss_after < loss_before / 10, "validation loss %.5f -> %.5f", loss_before, loss_after);
    fprintf(stderr, "material balance: mean error %.1f cp before training, %.1f cp after; loss %.5f -> %.5f\n", before,
            after, loss_before, loss_after);
    have_trained = true;
    posset_free(&train);
    posset_free(&valid);
}

static int compare_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The features of p, both perspectives, sorted (order does not matter to the net). */
static int sorted_features(const PackedPos *p, NnueMapping mapping, int out[64])
{
    int us[32], them[32];
    int n = packed_features(p, mapping, us, them);
    memcpy(out, us, (size_t)n * sizeof(int));
    memcpy(out + n, them, (size_t)n * sizeof(int));
    qsort(out, (size_t)(2 * n), sizeof(int), compare_int);
    return 2 * n;
}

TEST(nnue_mirrored_position_has_the_mirrored_boards_features)
{
    /* Each pair: a board and the same board with files a-h swapped (rank strings reversed). */
    static const char *pairs[][2] = {
        { "r3k2r/pb1n1ppp/1p2pn2/q1p5/2PP4/P1N1PN2/1PQ2PPP/R3KB1R w - - 0 1",
          "r2k3r/ppp1n1bp/2np2p1/5p1q/4PP2/2NP1N1P/PPP2QP1/R1BK3R w - - 0 1" },
        { "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1", "8/2k5/4p3/p2pP1p1/P1pP2Pp/K1P4P/8/8 b - - 0 1" },
    };
    static Position pos;
    char err[160];
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        PosSet set = { 0 };
        for (int k = 0; k < 2; k++)
            if (!CHECK(position_from_fen(&pos, pairs[i][k], err, sizeof err, NULL)) || !posset_add(&set, &pos, 0, 1))
                return;
        int plain[64], flipped[64], mirror[64];
        set.pos[0].mirrored = 1;
        int n = sorted_features(&set.pos[0], NNUE_MAP_PLAIN, flipped);
        CHECK(sorted_features(&set.pos[1], NNUE_MAP_PLAIN, mirror) == n);
        CHECK_MSG(!memcmp(flipped, mirror, (size_t)n * sizeof(int)), "pair %zu: mirrored features differ", i);
        set.pos[0].mirrored = 0;
        CHECK(sorted_features(&set.pos[0], NNUE_MAP_PLAIN, plain) == n);
        CHECK_MSG(memcmp(plain, mirror, (size_t)n * sizeof(int)) != 0, "pair %zu: the board is symmetric", i);
        /* HM: each perspective's view already has its king on a-d, so the board, its
         * mirror image and the mirrored flag all give the same features. */
        int hm[3][64];
        for (int k = 0; k < 3; k++) {
            set.pos[0].mirrored = k == 2;
            CHECK(sorted_features(&set.pos[k == 1], NNUE_MAP_HM, hm[k]) == n);
        }
        CHECK_MSG(!memcmp(hm[0], hm[1], (size_t)n * sizeof(int)) && !memcmp(hm[0], hm[2], (size_t)n * sizeof(int)),
                  "pair %zu: HM features differ", i);
        posset_free(&set);
    }
}

TEST(nnue_quantised_net_matches_the_float_model)
{
    if (!have_trained && !nnue_model_init(&trained, 7))
        return;
    Network *net = aligned_alloc(64, (sizeof *net + 63) / 64 * 64);
    if (!CHECK(net))
        return;
    nnue_model_quantize(&trained, net, 1.0f);
    static Position pos;
    static int16_t acc[COLOR_NB][NNUE_HIDDEN];
    PosSet set = { 0 };
    nnue_test_material_set(&set, 1000, 5);
    double sum = 0, worst = 0, signed_sum = 0;
    for (size_t i = 0; i < set.count; i++) {
        /* The pieces and side to move of the packed position: all nnue_refresh reads. */
        PackedPos *p = &set.pos[i];
        Position *q = &pos;
        memset(q->by_type, 0, sizeof q->by_type);
        memset(q->by_color, 0, sizeof q->by_color);
        memset(q->board, NO_PIECE, sizeof q->board);
        int k = 0;
        for (Bitboard b = p->occ; b; b &= b - 1, k++) {
            int pc = (p->pieces[k / 2] >> (4 * (k & 1))) & 15;
            Square sq = lsb(b);
            q->board[sq] = (uint8_t)pc;
            q->by_type[type_of(pc)] |= 1ULL << sq;
            q->by_color[color_of(pc)] |= 1ULL << sq;
        }
        q->side = p->stm;
        nnue_refresh(net, q, acc);
        int engine = nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc, q->side, popcount(pieces(q)));
        double model = nnue_model_eval(&trained, p);
        double diff = fabs(engine - model);
        sum += diff;
        signed_sum += engine - model;
        worst = diff > worst ? diff : worst;
        /* Tolerance: the rounding of the output weights to 1/64 and of the feature
         * weights to 1/255, summed over 512 neurons. Squaring a rounded activation adds
         * the variance of its rounding error, times the neuron's output weight: a bias
         * of either sign, some 5-15 cp depending on the trained weights (seen from -9 to
         * -13 between builds whose float training rounds differently). */
        CHECK_MSG(diff <= 30 + 0.05 * fabs(model), "engine %d cp, model %.1f cp", engine, model);
    }
    CHECK_MSG(sum / (double)set.count <= 16, "mean difference %.2f cp (worst %.1f)", sum / (double)set.count, worst);
    fprintf(stderr, "quantised against float: mean difference %.2f cp (signed %+.2f), worst %.1f cp\n", sum / (double)set.count, signed_sum / (double)set.count, worst);
    posset_free(&set);
    free(net);
}

TEST(nnue_net_is_quantised_at_the_hand_written_evaluations_slope)
{
    if (!have_trained)
        return;
    eval_init();
    PosSet set = { 0 };
    nnue_test_material_set(&set, 2000, 6);
    /* The model learned the material balance: its slope against it is about 1; the
     * hand-written evaluation adds positional terms but follows material. */
    double model = nnue_model_slope(&trained, &set), hce = nnue_hce_slope(&set);
    CHECK_MSG(model > 0.9 && model < 1.1, "model slope %.3f", model);
    CHECK_MSG(hce > 0.5 && hce < 1.5, "hand-written slope %.3f", hce);
    /* Quantised at half scale, the engine's net gives half the model's output. */
    Network *net = aligned_alloc(64, (sizeof *net + 63) / 64 * 64);
    if (!CHECK(net))
        return;
    nnue_model_quantize(&trained, net, 0.5f);
    static Position pos;
    static int16_t acc[COLOR_NB][NNUE_HIDDEN];
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < set.count; i++) {
        if (!packed_position(&set.pos[i], &pos))
            continue;
        nnue_refresh(net, &pos, acc);
        int engine = nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc, pos.side, popcount(pieces(&pos)));
        sum += fabs(engine - 0.5 * nnue_model_eval(&trained, &set.pos[i]));
        n++;
    }
    CHECK_MSG(n > set.count / 2 && sum / (double)n <= 8, "%zu positions, mean |engine - model / 2| %.2f cp", n,
              n ? sum / (double)n : 0.0);
    fprintf(stderr, "slopes: model %.3f, hand-written %.3f; half-scale net: mean difference %.2f cp\n", model, hce,
            n ? sum / (double)n : 0.0);
    posset_free(&set);
    free(net);
}

/* A net read back into the float model quantises to the same net: training can go on
 * from the built-in net (nnuetrain -init). */
static bool same_weights(const Network *a, const Network *b)
{
    return !memcmp(a->ft_weights, b->ft_weights, sizeof a->ft_weights) &&
           !memcmp(a->ft_bias, b->ft_bias, sizeof a->ft_bias) &&
           !memcmp(a->out_weights, b->out_weights, sizeof a->out_weights) &&
           !memcmp(a->out_bias, b->out_bias, sizeof a->out_bias);
}

TEST(nnue_model_from_a_net_quantises_back_to_it)
{
    char err[200];
    Network *builtin = network_default(err, sizeof err);
    Network *again = aligned_alloc(64, (sizeof *again + 63) / 64 * 64);
    NnueModel model, random;
    if (!CHECK(again) || !CHECK(nnue_model_init(&random, 3))) {
        free(again);
        network_free(builtin);
        return;
    }
    /* A random model's net, then the built-in one when the build has it. */
    Network *nets[2] = { aligned_alloc(64, (sizeof *again + 63) / 64 * 64), builtin };
    if (CHECK(nets[0]))
        nnue_model_quantize(&random, nets[0], 0.7f);
    for (int i = 0; i < 2; i++) {
        if (!nets[i] || !CHECK(nnue_model_from_network(&model, nets[i])))
            continue;
        nnue_model_quantize(&model, again, 1.0f);
        CHECK_MSG(same_weights(nets[i], again), "net %d differs after the round trip", i);
        CHECK_EQ(model.step, 0);
        CHECK_EQ(model.epoch, 0);
        nnue_model_free(&model);
    }
    free(nets[0]);
    free(again);
    network_free(builtin);
    nnue_model_free(&random);
}

TEST(nnue_checkpoints_round_trip_and_damage_is_refused)
{
    NnueModel a, b;
    if (!CHECK(nnue_model_init(&a, 11)))
        return;
    a.step = 1234;
    a.epoch = 5;
    a.m[100] = 0.5f;
    char path[] = "/tmp/saavedra-ckpt-XXXXXX", err[300];
    int fd = mkstemp(path);
    close(fd);
    CHECK(nnue_model_save(&a, path, err, sizeof err));
    if (CHECK(nnue_model_load(&b, path, err, sizeof err))) {
        CHECK(!memcmp(a.theta, b.theta, NNUE_PARAMS * sizeof(float)));
        CHECK(!memcmp(a.m, b.m, NNUE_PARAMS * sizeof(float)));
        CHECK_EQ(b.step, 1234);
        CHECK_EQ(b.epoch, 5);
        nnue_model_free(&b);
    }
    FILE *f = fopen(path, "r+b");
    fseek(f, 5000, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    CHECK(!nnue_model_load(&b, path, err, sizeof err));
    truncate(path, 100);
    CHECK(!nnue_model_load(&b, path, err, sizeof err));
    remove(path);
    nnue_model_free(&a);
}

TEST(nnue_data_loader_reads_files_and_skips_damage)
{
    char dir[] = "/tmp/saavedra-nnuedata-XXXXXX", path[256], err[300];
    if (!CHECK(mkdtemp(dir)))
        return;
    snprintf(path, sizeof path, "%s/s1-000000000.svt", dir);
    static TrainGame g;
    static uint8_t buf[TRAIN_RECORD_MAX];
    static Position pos, start;
    uint64_t rng = 17;
    FILE *f = fopen(path, "wb");
    TrainHeader h = { 100, 1, 0, 40, 0 };
    uint8_t head[TRAIN_HEADER_SIZE];
    train_header_encode(&h, head);
    fwrite(head, 1, sizeof head, f);
    long scored = 0, damaged_at = 7;
    for (int game = 0; game < 40; game++) {
        position_from_fen(&start, START_FEN, err, sizeof err, NULL);
        pos = start;
        Move moves[120];
        int n = 0;
        while (n < 120) {
            MoveList list;
            generate_legal(&pos, &list);
            if (!list.count)
                break;
            moves[n] = list.moves[splitmix64(&rng) % (uint64_t)list.count];
            make_move(&pos, moves[n++]);
        }
        memset(&g, 0, sizeof g);
        g.standard_start = true;
        g.plies = movecode_encode_game(&start, moves, n, g.codes);
        g.first_scored = 2;
        g.result = TRAIN_WHITE_WON;
        long here = 0;
        for (int i = 2; i < g.plies; i++) {
            g.scores[i] = i % 4 == 0 ? TRAIN_NO_SCORE : 50; /* White's point of view */
            here += g.scores[i] != TRAIN_NO_SCORE;
        }
        size_t size = train_game_encode(&g, buf);
        if (game == damaged_at)
            buf[size / 2] ^= 0xFF;
        else
            scored += here;
        fwrite(buf, 1, size, f);
    }
    fclose(f);
    NnueData data;
    if (CHECK(nnue_data_load(dir, 0.25, 0, &data, err, sizeof err))) {
        CHECK_EQ((long)(data.train.count + data.valid.count), scored);
        CHECK_EQ(data.damaged, 1);
        CHECK(data.valid.count > 0 && data.valid.count < data.train.count);
        /* Scores are White's in the file, the side to move's in memory; White won. */
        for (size_t i = 0; i < data.train.count; i++) {
            const PackedPos *p = &data.train.pos[i];
            CHECK_EQ(p->score, p->stm == WHITE ? 50 : -50);
            CHECK_EQ(p->result, p->stm == WHITE ? 2 : 0);
        }
        nnue_data_free(&data);
    }
    /* Several sources separated by ':' are read in turn (here the folder and its one
     * file: every position twice); a missing one is an error. */
    char both[600];
    snprintf(both, sizeof both, "%s:%s", dir, path);
    if (CHECK(nnue_data_load(both, 0.25, 0, &data, err, sizeof err))) {
        CHECK_EQ((long)(data.train.count + data.valid.count), 2 * scored);
        nnue_data_free(&data);
    }
    snprintf(both, sizeof both, "%s:%s/missing", dir, dir);
    CHECK(!nnue_data_load(both, 0.25, 0, &data, err, sizeof err) && strstr(err, "missing"));
    /* A file that is not training data is skipped, and with nothing else, refused. */
    remove(path);
    snprintf(path, sizeof path, "%s/junk.svt", dir);
    f = fopen(path, "wb");
    fputs("not training data at all, just text that is long enough for a header", f);
    fclose(f);
    CHECK(!nnue_data_load(dir, 0.25, 0, &data, err, sizeof err));
    remove(path);
    rmdir(dir);
}

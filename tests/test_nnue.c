/* The neural evaluation in the engine (nnue/): the net file is checked whole and a bad
 * one refused; incremental accumulators equal a refresh at every node of perft trees and
 * along random games (castling, en passant, promotions, null moves, Chess960); the SIMD
 * output equals a plain reference; searches run with the net, and a bad EvalFile leaves
 * the net in use. The net here is random: what is tested is the arithmetic, not chess. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/movegen.h"
#include "engine/engine.h"
#include "nnue/nnue_eval.h"
#include "util/options.h"
#include "test.h"
#include "util/random.h"

static uint8_t net_bytes[NNUE_FILE_SIZE];

/* A random net of the engine's shape (as bytes, and read back). */
static Network *random_net(uint64_t seed)
{
    Network *raw = aligned_alloc(64, (sizeof *raw + 63) / 64 * 64);
    uint64_t rng = seed;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            raw->ft_weights[f][i] = (int16_t)((int)(splitmix64(&rng) % 121) - 60);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        raw->ft_bias[i] = (int16_t)((int)(splitmix64(&rng) % 201) - 40);
    for (int k = 0; k < NNUE_BUCKETS; k++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            raw->out_weights[k][i] = (int16_t)((int)(splitmix64(&rng) % 255) - 127);
        raw->out_bias[k] = (int32_t)(splitmix64(&rng) % 100001) - 50000;
    }
    network_to_bytes(raw, net_bytes);
    free(raw);
    char err[300];
    return network_from_bytes(net_bytes, sizeof net_bytes, err, sizeof err);
}

static bool write_file(const char *path, const void *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(bytes, 1, size, f) == size;
    return f && fclose(f) == 0 && ok;
}

TEST(nnue_net_bytes_round_trip_and_refusals)
{
    Network *net = random_net(1);
    if (!CHECK(net))
        return;
    static uint8_t again[NNUE_FILE_SIZE];
    network_to_bytes(net, again);
    CHECK(!memcmp(again, net_bytes, sizeof again));
    char err[300];
    /* Every kind of damage is refused with a reason. */
    static uint8_t bad[NNUE_FILE_SIZE + 1];
    for (size_t at = 0; at < NNUE_FILE_SIZE; at += 9973) {
        memcpy(bad, net_bytes, NNUE_FILE_SIZE);
        bad[at] ^= 0x10;
        Network *n = network_from_bytes(bad, NNUE_FILE_SIZE, err, sizeof err);
        CHECK_MSG(!n && err[0], "a flipped byte at %zu was accepted", at);
        network_free(n);
    }
    CHECK(!network_from_bytes(net_bytes, NNUE_FILE_SIZE - 1, err, sizeof err));
    memcpy(bad, net_bytes, NNUE_FILE_SIZE);
    CHECK(!network_from_bytes(bad, NNUE_FILE_SIZE + 1, err, sizeof err));
    CHECK(!network_from_bytes(net_bytes, 20, err, sizeof err));
    CHECK(!network_from_bytes("\x8b\x4c\x10\x00 a Polyglot book, say", 26, err, sizeof err));
    /* Another architecture: the header says so before the size does. */
    memcpy(bad, net_bytes, NNUE_FILE_SIZE);
    bad[16] = 0, bad[17] = 2; /* 512 hidden */
    CHECK(!network_from_bytes(bad, NNUE_FILE_SIZE, err, sizeof err) && strstr(err, "architecture"));
    /* An output weight the 16-bit output layer cannot take. */
    net->out_weights[0][3] = 200;
    network_to_bytes(net, bad);
    CHECK(!network_from_bytes(bad, NNUE_FILE_SIZE, err, sizeof err) && strstr(err, "out of range"));
    network_free(net);
}

TEST(nnue_load_refuses_what_is_not_a_net_file)
{
    Network *net = random_net(2);
    char dir[] = "/tmp/saavedra-nnue-XXXXXX", path[256], err[400];
    if (!CHECK(net && mkdtemp(dir)))
        return;
    snprintf(path, sizeof path, "%s/good.nnue", dir);
    CHECK(write_file(path, net_bytes, sizeof net_bytes));
    Network *back = network_load(path, err, sizeof err);
    CHECK(back && back->id == net->id);
    network_free(back);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    CHECK(!network_load(path, err, sizeof err)); /* no hang: opened without blocking */
    remove(path);
    CHECK(!network_load(dir, err, sizeof err));
    snprintf(path, sizeof path, "%s/missing.nnue", dir);
    CHECK(!network_load(path, err, sizeof err) && strstr(err, "missing.nnue"));
    snprintf(path, sizeof path, "%s/short.nnue", dir);
    CHECK(write_file(path, net_bytes, 1000));
    CHECK(!network_load(path, err, sizeof err));
    remove(path);
    snprintf(path, sizeof path, "%s/good.nnue", dir);
    remove(path);
    rmdir(dir);
    network_free(net);
}

/* The output computed the plain way, for comparison with nnue_output's SIMD paths. */
static int reference_output(const Network *net, int16_t acc[COLOR_NB][NNUE_HIDDEN], Color stm, int count)
{
    int bucket = nnue_bucket(count);
    int64_t sum = 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            int64_t x = acc[side ? !stm : stm][i];
            x = x < 0 ? 0 : x > NNUE_QA ? NNUE_QA : x;
            sum += x * x * net->out_weights[bucket][side * NNUE_HIDDEN + i];
        }
    int64_t v = (sum / NNUE_QA + net->out_bias[bucket]) * NNUE_SCALE / (NNUE_QA * NNUE_QB);
    return v > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : v < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : (int)v;
}

typedef struct {
    const Network *net;
    NnueState *state;
    long nodes, bad;
    int16_t fresh[COLOR_NB][NNUE_HIDDEN];
} Walk;

/* Evaluates incrementally and compares with a refresh and the reference output. */
static void compare_here(Walk *w, const Position *pos)
{
    int v = nnue_evaluate(w->net, w->state, pos);
    const Accumulator *a = nnue_current(w->state, pos);
    nnue_refresh(w->net, pos, w->fresh);
    w->nodes++;
    if (!a || memcmp(a->v, w->fresh, sizeof w->fresh)
        || v != reference_output(w->net, w->fresh, pos->side, popcount(pieces(pos)))) {
        if (w->bad++ < 5) {
            char fen[128];
            position_to_fen(pos, fen);
            CHECK_MSG(false, "accumulator differs from a refresh at %s", fen);
        }
    }
}

static void walk(Walk *w, Position *pos, int depth)
{
    compare_here(w, pos);
    if (depth == 0)
        return;
    if (!in_check(pos) && depth >= 2) {
        make_null_move(pos);
        compare_here(w, pos);
        unmake_null_move(pos);
    }
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        make_move(pos, list.moves[i]);
        walk(w, pos, depth - 1);
        unmake_move(pos, list.moves[i]);
    }
}

TEST(nnue_incremental_equals_refresh_over_perft_trees)
{
    static const struct { const char *fen; int depth; } cases[] = {
        { START_FEN, 4 },
        { "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3 },  /* castling, ep, promotions */
        { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4 },                             /* en passant pins */
        { "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3 },      /* promotions */
        { "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 4 },                               /* underpromotions */
        { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3 },     /* Chess960 castling */
        { "2r1kr2/8/8/8/8/8/8/1R2KR2 w BFcf - 0 1", 4 },                                /* Chess960, king on its target */
    };
    Network *net = random_net(3);
    NnueState *state = calloc(1, sizeof *state);
    if (!CHECK(net && state))
        return;
    static Position pos;
    char err[160];
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        if (!CHECK_MSG(position_from_fen(&pos, cases[c].fen, err, sizeof err, NULL), "%s: %s", cases[c].fen, err))
            continue;
        Walk w = { net, state, 0, 0, { { 0 } } };
        walk(&w, &pos, cases[c].depth);
        CHECK_MSG(w.bad == 0, "%ld of %ld nodes differ in %s", w.bad, w.nodes, cases[c].fen);
    }
    CHECK(state->updates > state->refreshes); /* the incremental path was the one tested */
    free(state);
    network_free(net);
}

TEST(nnue_incremental_equals_refresh_along_random_games)
{
    Network *net = random_net(4);
    NnueState *state = calloc(1, sizeof *state);
    if (!CHECK(net && state))
        return;
    static Position pos;
    static const char *starts[] = { START_FEN, "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1" };
    char err[160];
    uint64_t rng = 99;
    long bad = 0, checked = 0;
    for (int game = 0; game < 60; game++) {
        position_from_fen(&pos, starts[game & 1], err, sizeof err, NULL);
        nnue_state_reset(state);
        int skip = 0;
        for (int ply = 0; ply < 300; ply++) {
            /* Evaluate after a random number of plies, so that replays of several moves
             * and the refresh fallback are both taken. */
            if (skip-- <= 0) {
                Walk w = { net, state, 0, 0, { { 0 } } };
                compare_here(&w, &pos);
                bad += w.bad;
                checked++;
                skip = (int)(splitmix64(&rng) % 12);
            }
            MoveList list;
            generate_legal(&pos, &list);
            if (list.count == 0)
                break;
            make_move(&pos, list.moves[splitmix64(&rng) % (uint64_t)list.count]);
            position_bound_history(&pos, 32);
        }
    }
    CHECK_MSG(bad == 0, "%ld of %ld evaluations differ", bad, checked);
    free(state);
    network_free(net);
}

/* The score of a depth-1 search, in a new game, of a position of kings and pawns where no
 * capture or check is in reach: the best child's static evaluation. */
static int pawns_depth_one_score(Engine *e)
{
    char err[200];
    engine_new_game(e);
    engine_set_position(e, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", NULL, 0, err, sizeof err);
    SearchLimits limits;
    limits_init(&limits);
    limits.depth = 1;
    CHECK(engine_go(e, &limits, NULL, err, sizeof err));
    engine_wait(e);
    return engine_last_result(e).score;
}

TEST(nnue_searches_and_a_bad_eval_file_keeps_the_net)
{
    Network *net = random_net(5);
    char dir[] = "/tmp/saavedra-nnue-XXXXXX", good[256], bad[256], err[400];
    if (!CHECK(net && mkdtemp(dir)))
        return;
    snprintf(good, sizeof good, "%s/good.nnue", dir);
    snprintf(bad, sizeof bad, "%s/bad.nnue", dir);
    write_file(good, net_bytes, sizeof net_bytes);
    net_bytes[5000] ^= 1;
    write_file(bad, net_bytes, sizeof net_bytes);
    Engine *e = engine_new();
    if (!CHECK(e))
        return;
    /* The default evaluation is the built-in net when the build has one. */
    Network *builtin = network_default(err, sizeof err);
    CHECK(option_bool(engine_options(e), OPT_USE_NNUE) == (builtin != NULL));
    network_free(builtin);
    engine_set_option_id(e, OPT_LEARNING, "false", OPT_SOURCE_GUI, err, sizeof err);
    engine_set_option_id(e, OPT_OWN_BOOK, "false", OPT_SOURCE_GUI, err, sizeof err);
    CHECK(engine_set_option_id(e, OPT_EVAL_FILE, good, OPT_SOURCE_GUI, err, sizeof err));
    CHECK(engine_net(e) && engine_net(e)->id == net->id);
    CHECK(!engine_set_option_id(e, OPT_EVAL_FILE, bad, OPT_SOURCE_GUI, err, sizeof err) && strstr(err, "stays"));
    CHECK(engine_net(e) && engine_net(e)->id == net->id);
    CHECK(engine_set_option_id(e, OPT_USE_NNUE, "true", OPT_SOURCE_GUI, err, sizeof err));
    const char *modes[] = { "YBWC", "Lazy" };
    for (int threads = 1; threads <= 2; threads++)
        for (int m = 0; m < threads; m++) {
            char value[8];
            snprintf(value, sizeof value, "%d", threads);
            engine_set_option_id(e, OPT_THREADS, value, OPT_SOURCE_GUI, err, sizeof err);
            engine_set_option_id(e, OPT_SMP_MODE, modes[m], OPT_SOURCE_GUI, err, sizeof err);
            engine_new_game(e);
            engine_set_position(e, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL, 0,
                                err, sizeof err);
            SearchLimits limits;
            limits_init(&limits);
            limits.depth = 7;
            CHECK(engine_go(e, &limits, NULL, err, sizeof err));
            engine_wait(e);
            SearchResult r = engine_last_result(e);
            MoveList list;
            generate_legal(engine_position(e), &list);
            bool legal = false;
            for (int i = 0; i < list.count; i++)
                legal |= list.moves[i] == r.best;
            CHECK_MSG(legal && r.depth >= 7, "%d threads %s: no legal move at depth 7", threads, modes[m]);
        }
    /* NNUE Scale multiplies every leaf: with no capture or check anywhere in reach, the
     * depth-1 score is the best child's evaluation, so halving the scale halves it (each
     * leaf rounded toward zero). */
    int score[2];
    for (int k = 0; k < 2; k++) {
        engine_set_option_id(e, OPT_THREADS, "1", OPT_SOURCE_GUI, err, sizeof err);
        CHECK(engine_set_option_id(e, OPT_NNUE_SCALE, k ? "50" : "100", OPT_SOURCE_GUI, err, sizeof err));
        score[k] = pawns_depth_one_score(e);
    }
    CHECK_MSG(abs(score[0]) > 10 && abs(2 * score[1] - score[0]) <= 2, "scale 100: %d, scale 50: %d", score[0], score[1]);
    /* Limited strength evaluates with the hand-written evaluation, on which its levels
     * were calibrated (at the top level it searches one line without noise). */
    int hce = 0, limited = 0;
    for (int k = 0; k < 2; k++) {
        engine_set_option_id(e, OPT_NNUE_SCALE, "100", OPT_SOURCE_GUI, err, sizeof err);
        engine_set_option_id(e, OPT_USE_NNUE, k ? "true" : "false", OPT_SOURCE_GUI, err, sizeof err);
        engine_set_option_id(e, OPT_UCI_LIMIT_STRENGTH, k ? "true" : "false", OPT_SOURCE_GUI, err, sizeof err);
        engine_set_option_id(e, OPT_UCI_ELO, "2440", OPT_SOURCE_GUI, err, sizeof err);
        *(k ? &limited : &hce) = pawns_depth_one_score(e);
    }
    CHECK_MSG(limited == hce && hce != score[0], "hand-written %d, limited with the net on %d, net %d", hce, limited,
              score[0]);
    engine_free(e);
    remove(good);
    remove(bad);
    rmdir(dir);
    network_free(net);
}

/* The neural evaluation in the engine (nnue/): the net file is checked whole and a bad
 * one refused, in both versions of the format (plain and HM input mappings); searches run
 * with the net, and a bad EvalFile leaves the net in use. Incremental updates are tested
 * in test_nnue_incremental.c. The nets here are random: what is tested is the arithmetic
 * and the checks, not chess. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/movegen.h"
#include "engine/engine.h"
#include "nnue/nnue_eval.h"
#include "nnue_testnet.h"
#include "util/crc32.h"
#include "util/options.h"
#include "test.h"

static uint8_t net_bytes[NNUE_FILE_MAX];
static size_t net_size;

/* A random plain net (its file in net_bytes). */
static Network *random_net(uint64_t seed)
{
    return nnue_test_net(seed, NNUE_MAP_PLAIN, net_bytes, &net_size);
}

static bool write_file(const char *path, const void *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(bytes, 1, size, f) == size;
    return f && fclose(f) == 0 && ok;
}

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Sets the file's checksum after a deliberate change, so that only the change is judged. */
static void reseal(uint8_t *bytes, size_t size)
{
    uint32_t crc = crc32_of(bytes, size - 4);
    for (int i = 0; i < 4; i++)
        bytes[size - 4 + i] = (uint8_t)(crc >> (8 * i));
}

TEST(nnue_net_bytes_round_trip_and_refusals)
{
    static uint8_t bytes[NNUE_FILE_MAX + 1], again[NNUE_FILE_MAX], bad[NNUE_FILE_MAX + 1];
    char err[300];
    for (int mapping = NNUE_MAP_PLAIN; mapping < NNUE_MAP_COUNT; mapping++) {
        size_t size;
        Network *net = nnue_test_net(1, (NnueMapping)mapping, bytes, &size);
        if (!CHECK(net))
            return;
        /* A plain net is written as version 1 (every reader of nets reads it), an HM
         * net as version 2, its mapping after the shape. */
        bool plain = mapping == NNUE_MAP_PLAIN;
        CHECK_EQ(size, plain ? NNUE_FILE_SIZE : NNUE_FILE_SIZE_V2);
        CHECK_EQ(get32(bytes + 8), plain ? 1 : 2);
        CHECK(plain || get32(bytes + 36) == NNUE_MAP_HM);
        CHECK(net->mapping == (NnueMapping)mapping && net->id == get32(bytes + size - 4));
        CHECK(network_to_bytes(net, again) == size && !memcmp(again, bytes, size));
        /* Every kind of damage is refused with a reason. */
        for (size_t at = 0; at < size; at += 9973) {
            memcpy(bad, bytes, size);
            bad[at] ^= 0x10;
            Network *n = network_from_bytes(bad, size, err, sizeof err);
            CHECK_MSG(!n && err[0], "mapping %d: a flipped byte at %zu was accepted", mapping, at);
            network_free(n);
        }
        CHECK(!network_from_bytes(bytes, size - 1, err, sizeof err));
        memcpy(bad, bytes, size);
        CHECK(!network_from_bytes(bad, size + 1, err, sizeof err));
        CHECK(!network_from_bytes(bytes, 20, err, sizeof err));
        /* Another architecture: the header says so before the size does. */
        memcpy(bad, bytes, size);
        bad[16] = 0, bad[17] = 2; /* 512 hidden */
        CHECK(!network_from_bytes(bad, size, err, sizeof err) && strstr(err, "architecture"));
        memcpy(bad, bytes, size);
        bad[8] = 3; /* a version to come */
        reseal(bad, size);
        CHECK(!network_from_bytes(bad, size, err, sizeof err) && strstr(err, "architecture"));
        /* An output weight the 16-bit output layer cannot take. */
        net->out_weights[0][3] = 200;
        network_to_bytes(net, bad);
        CHECK(!network_from_bytes(bad, size, err, sizeof err) && strstr(err, "out of range"));
        network_free(net);
    }
    CHECK(!network_from_bytes("\x8b\x4c\x10\x00 a Polyglot book, say", 26, err, sizeof err));
    /* Version 2 with a mapping this engine does not know; then with the plain mapping,
     * which is the version 1 net with four bytes more. */
    size_t size;
    Network *net = nnue_test_net(2, NNUE_MAP_HM, bytes, &size);
    Network *plain = nnue_test_net(2, NNUE_MAP_PLAIN, again, &size);
    if (!CHECK(net && plain))
        return;
    bytes[36] = NNUE_MAP_COUNT;
    reseal(bytes, NNUE_FILE_SIZE_V2);
    CHECK(!network_from_bytes(bytes, NNUE_FILE_SIZE_V2, err, sizeof err) && strstr(err, "input mapping"));
    bytes[36] = NNUE_MAP_PLAIN;
    reseal(bytes, NNUE_FILE_SIZE_V2);
    Network *v2 = network_from_bytes(bytes, NNUE_FILE_SIZE_V2, err, sizeof err);
    CHECK(v2 && v2->mapping == NNUE_MAP_PLAIN && !memcmp(v2->ft_weights, plain->ft_weights, sizeof v2->ft_weights)
          && !memcmp(v2->out_weights, plain->out_weights, sizeof v2->out_weights));
    /* A version 1 header on a file of version 2's size, and the other way round. */
    CHECK(!network_from_bytes(again, NNUE_FILE_SIZE_V2, err, sizeof err));
    CHECK(!network_from_bytes(bytes, NNUE_FILE_SIZE, err, sizeof err));
    network_free(v2);
    network_free(plain);
    network_free(net);
}

TEST(nnue_load_refuses_what_is_not_a_net_file)
{
    Network *net = random_net(2);
    char dir[] = "/tmp/saavedra-nnue-XXXXXX", path[256], err[400];
    if (!CHECK(net && mkdtemp(dir)))
        return;
    snprintf(path, sizeof path, "%s/good.nnue", dir);
    CHECK(write_file(path, net_bytes, net_size));
    Network *back = network_load(path, err, sizeof err);
    CHECK(back && back->id == net->id);
    network_free(back);
    /* An HM net's file (version 2, four bytes longer) loads too, with its mapping. */
    Network *hm = nnue_test_net(2, NNUE_MAP_HM, net_bytes, &net_size);
    CHECK(hm && write_file(path, net_bytes, net_size));
    back = network_load(path, err, sizeof err);
    CHECK(hm && back && back->id == hm->id && back->mapping == NNUE_MAP_HM);
    network_free(back);
    network_free(hm);
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
    char dir[] = "/tmp/saavedra-nnue-XXXXXX", good[256], bad[256], hm_path[256], err[400];
    Network *hm = nnue_test_net(6, NNUE_MAP_HM, net_bytes, &net_size);
    if (!CHECK(hm && mkdtemp(dir)))
        return;
    snprintf(hm_path, sizeof hm_path, "%s/hm.nnue", dir);
    write_file(hm_path, net_bytes, net_size);
    Network *net = random_net(5);
    if (!CHECK(net))
        return;
    snprintf(good, sizeof good, "%s/good.nnue", dir);
    snprintf(bad, sizeof bad, "%s/bad.nnue", dir);
    write_file(good, net_bytes, net_size);
    net_bytes[5000] ^= 1;
    write_file(bad, net_bytes, net_size);
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
    /* The plain net, then an HM one (whose accumulators are refreshed when a king
     * crosses the d/e line, castling included in this position). */
    for (int k = 0; k < 2; k++)
    for (int threads = 1; threads <= 2; threads++)
        for (int m = 0; m < threads; m++) {
            if (k == 1 && threads == 1) {
                CHECK(engine_set_option(e, "EvalFile", hm_path, OPT_SOURCE_GUI, err, sizeof err));
                CHECK(engine_net(e) && engine_net(e)->id == hm->id && engine_net(e)->mapping == NNUE_MAP_HM);
            }
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
            CHECK_MSG(legal && r.depth >= 7, "%s net, %d threads %s: no legal move at depth 7", k ? "HM" : "plain",
                      threads, modes[m]);
        }
    CHECK(engine_set_option(e, "EvalFile", good, OPT_SOURCE_GUI, err, sizeof err));
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
    remove(hm_path);
    rmdir(dir);
    network_free(net);
    network_free(hm);
}

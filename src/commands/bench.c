/* Search benchmark: see bench.h. Positions: the start position, well-known perft and
 * test positions, and a spread of middlegames and endgames from the EPD suites in
 * epd/ (WAC, ECM-GCP, EET, PET, SBD). */
#include "commands/bench.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "board/notation.h"
#include "commands/smpstats.h"
#include "search/checks.h"
#include "util/timeutil.h"
#include "util/words.h"

static const char *const BENCH_FENS[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/5N2/PP2PPPP/RNBQKB1R w KQkq - 0 4",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    /* WAC */
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "1r1r2k1/4pp1p/2p1b1p1/p3R3/RqBP4/4P3/1PQ2PPP/6K1 b - - 0 1",
    "6k1/6p1/p7/3Pn3/5p2/4rBqP/P4RP1/5QK1 b - - 0 1",
    "r2q3r/ppp2k2/4nbp1/5Q1p/2P1NB2/8/PP3P1P/3RR1K1 w - - 0 1",
    "6k1/2pb1r1p/3p1PpQ/p1nPp3/1q2P3/2N2P2/PrB5/2K3RR w - - 0 1",
    "6rk/1pp2Qrp/3p1B2/1pb1p2R/3n1q2/3P4/PPP3PP/R6K w - - 0 1",
    "2r3k1/q4ppp/p3p3/pnNp4/2rP4/2P2P2/4R1PP/2R1Q1K1 b - - 0 1",
    "3r2k1/p1rn1p1p/1p2pp2/6q1/3PQNP1/5P2/P1P4R/R5K1 w - - 0 1",
    "r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1",
    "r2qkb1r/pppb2pp/2np1n2/5pN1/2BQP3/2N5/PPP2PPP/R1B1K2R w KQkq - 0 1",
    /* ECM-GCP */
    "2r2bk1/4qp2/3n2p1/2R1p1Np/2p1N3/r6P/1Q3PP1/3R2K1 w - - 0 1",
    "r1k4r/ppp1b3/5Npp/4pb1Q/8/1B2B3/PqP2PPP/2RR2K1 w - - 0 1",
    "1r3rk1/p4pbp/q1p2pp1/3p1b2/1n1P1P1B/PB3N2/1PPQR1PP/2KR4 b - - 0 1",
    "2rq4/5rbk/3p1n1p/p2Pp2P/1p2b3/4BNR1/PP1Q1P2/3BK1R1 w - - 0 1",
    "r2q1rk1/p5pp/bn1p1p2/2pP4/1bP1NP2/3B1R2/PBQ3PP/R5K1 w - - 0 1",
    "r4rk1/p1p2pp1/bp1p1q1p/n1nPpN2/2P1P2P/2PB4/P2BQPP1/R3K2R w KQ - 0 1",
    "r1b2rk1/1p3pbp/2p3p1/p1q5/1P6/1Q4P1/1P2PPBP/R1B1R1K1 b - - 0 1",
    "r4rk1/1bq2ppp/p1p1p3/2b1P1B1/3p2Q1/3B4/PPP2PPP/R3R1K1 w - - 0 1",
    /* SBD (quiet positional middlegames) */
    "1qr3k1/p2nbppp/bp2p3/3p4/3P4/1P2PNP1/P2Q1PBP/1N2R1K1 b - - 0 1",
    "3r2k1/2q2p1p/5bp1/p1pP4/PpQ5/1P3NP1/5PKP/3R4 b - - 0 1",
    "r1bq1rk1/1p2ppbp/p2p1np1/6B1/2P1P3/2N5/PP1QBPPP/R3K2R w KQ - 0 1",
    "r1bqk2r/p2pppbp/2p3pn/2p5/4P3/2P2N2/PP1P1PPP/RNBQR1K1 b kq - 0 1",
    "r1q1k2r/1b1nbppp/pp1ppn2/8/2PQP3/1PN2NP1/PB3PBP/R2R2K1 b kq - 0 1",
    "r3r1k1/1pqn1pbp/p2p2p1/2nP2B1/P1P1P3/2NB3P/5PP1/R2QR1K1 w - - 0 1",
    /* EET (endgames) */
    "8/3Pb1p1/8/3P2P1/5P2/7k/4K3/8 w - - 0 1",
    "1rr2k2/p1q5/3p2Q1/3Pp2p/8/1P3P2/1KPRN3/8 w - e6 0 1",
    "8/3k1p2/n3pP2/1p2P2p/5K2/1PB5/7P/8 b - - 0 1",
    "k2N4/1qpK1p2/1p6/1P4p1/1P4P1/8/8/8 w - - 0 1",
    "1k6/8/8/1K6/5pp1/8/4Pp1p/R7 w - - 0 1",
    "8/6p1/1p5p/1R2k3/4p3/1P2P3/1K4PP/3r4 b - - 0 1",
    "8/2p4K/4k1p1/p1p1P3/PpP2P2/5R1P/8/6r1 b - - 0 1",
    "5k2/3p1b2/4pN2/3PPpp1/6R1/6PK/1B1q1P2/8 w - - 0 1",
    "8/1rk1P3/7p/P7/1N2r3/5RKb/8/8 w - - 0 1",
    /* PET (pawn endings) and other simple endings */
    "8/1p4kP/5pP1/3p4/8/4P3/7K/8 w - - 0 1",
    "8/1p3p2/p4kpp/1PPp4/P7/7P/5K1P/8 b - - 0 1",
    "8/3k4/3b4/1K6/7p/5B1P/PP6/8 w - - 0 1",
    "3r4/7p/Rp4k1/5p2/4p3/2P5/PP3P1P/5K2 b - - 0 1",
    "8/8/8/4k3/8/8/3PK3/8 w - - 0 1",
    "8/8/1k6/8/8/8/1K6/2R5 w - - 0 1",
    "4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 1",
};

#define BENCH_COUNT ((int)(sizeof BENCH_FENS / sizeof *BENCH_FENS))

uint64_t bench_run(int depth, int threads, int hash_mb, const char *smp_mode, BenchEval eval_mode,
                   Writer *out)
{
    Engine *e = engine_new();
    if (!e) {
        fprintf(stderr, "bench: out of memory\n");
        return 0;
    }
    char err[256], value[32];
    snprintf(value, sizeof value, "%d", hash_mb);
    if (!engine_set_option_id(e, OPT_HASH, value, OPT_SOURCE_GUI, err, sizeof err))
        fprintf(stderr, "bench: %s (using the default hash size)\n", err);
    /* The learning file must not change the node count. */
    engine_set_option_id(e, OPT_LEARNING, "false", OPT_SOURCE_GUI, err, sizeof err);
    snprintf(value, sizeof value, "%d", threads);
    if (!engine_set_option_id(e, OPT_THREADS, value, OPT_SOURCE_GUI, err, sizeof err))
        fprintf(stderr, "bench: %s (using one thread)\n", err);
    if (smp_mode
        && !engine_set_option_id(e, OPT_SMP_MODE, smp_mode, OPT_SOURCE_GUI, err, sizeof err))
        fprintf(stderr, "bench: %s\n", err);

    /* The search, not the book, answers the start position. */
    engine_set_option_id(e, OPT_OWN_BOOK, "false", OPT_SOURCE_GUI, err, sizeof err);
    if (eval_mode != BENCH_EVAL_DEFAULT)
        engine_set_option_id(e, OPT_USE_NNUE, eval_mode == BENCH_EVAL_NNUE ? "true" : "false",
                             OPT_SOURCE_GUI, err, sizeof err);
    if (eval_mode == BENCH_EVAL_NNUE) {
        if (!engine_net(e)) {
            fprintf(stderr, "bench: this build has no net\n");
            engine_free(e);
            return 0;
        }
    }

    SearchLimits limits;
    limits_init(&limits);
    limits.depth = depth;
    uint64_t total = 0;
    SplitStats stats;
    engine_smp_stats(e, &stats, true);
    int64_t start = time_now_ms();
    for (int i = 0; i < BENCH_COUNT; i++) {
        engine_new_game(e); /* fresh table and histories: counts independent of order */
        if (!engine_set_position(e, BENCH_FENS[i], NULL, 0, err, sizeof err)) {
            fprintf(stderr, "bench: position %d: %s\n", i + 1, err);
            continue;
        }
        if (!engine_go(e, &limits, NULL, err, sizeof err)) {
            fprintf(stderr, "bench: %s\n", err);
            break;
        }
        engine_wait(e);
        SearchResult r = engine_last_result(e);
        char mv[8];
        writer_printf(out, "%2d/%d %-6s %10llu  %s\n", i + 1, BENCH_COUNT, move_to_uci(r.best, mv),
                (unsigned long long)r.nodes, BENCH_FENS[i]);
        total += r.nodes;
    }
    int64_t elapsed = time_now_ms() - start;
    uint64_t nps = total * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1);
    writer_printf(out, "Total time (ms): %lld\n", (long long)elapsed);
    engine_smp_stats(e, &stats, false);
    if (threads > 1)
        smpstats_print_summary(out, &stats, threads);
    smpstats_print_line(out, &stats, threads, total);
    if (SEARCH_CHECKS)
        smpstats_print_checks(out, &stats);
    writer_printf(out, "Nodes searched: %llu\n", (unsigned long long)total);
    writer_printf(out, "Nodes/second: %llu\n", (unsigned long long)nps);
    writer_printf(out, "%llu nodes %llu nps\n", (unsigned long long)total, (unsigned long long)nps);
    engine_free(e);
    return total;
}

int bench_main(int argc, char **argv, Writer *out, char *err, size_t err_size)
{
    int depth = BENCH_DEFAULT_DEPTH, threads = 1, hash = BENCH_DEFAULT_HASH_MB;
    const char *mode = NULL;
    BenchEval eval_mode = BENCH_EVAL_DEFAULT;
    err[0] = '\0';
    if (argc > 3) {
        if (!strcasecmp(argv[3], "ybwc") || !strcasecmp(argv[3], "lazy"))
            mode = argv[3];
        else
            argc = 6; /* not a mode: the usage below */
    }
    if (argc == 5) {
        if (!strcasecmp(argv[4], "nnue") || !strcasecmp(argv[4], "hce"))
            eval_mode = strcasecmp(argv[4], "nnue") ? BENCH_EVAL_HCE : BENCH_EVAL_NNUE;
        else
            argc = 6;
    }
    if ((argc > 0 && !word_to_int(argv[0], 1, MAX_PLY - 1, &depth))
        || (argc > 1 && !word_to_int(argv[1], 1, 256, &threads))
        || (argc > 2 && !word_to_int(argv[2], 1, 65536, &hash)) || argc > 5) {
        snprintf(err, err_size, "usage: bench [depth (1..%d) [threads (1..256) [hashMB (1..65536) "
                 "[YBWC|Lazy [HCE|NNUE]]]]]", MAX_PLY - 1);
        return 1;
    }
    return bench_run(depth, threads, hash, mode, eval_mode, out) ? 0 : 1;
}

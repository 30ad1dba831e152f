/* Tests of the search modules: transposition table (packing, mate scores by ply, the
 * lockless check, replacement, hashfull), SEE, the move picker (every legal move exactly
 * once), mates found with the right distance, draws by rule scored 0, time limits,
 * contempt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "eval/evaluate.h"
#include "board/movegen.h"
#include "search/node.h"
#include "search/movepicker.h"
#include "board/notation.h"
#include "search/search.h"
#include "search/see.h"
#include "search/strength.h"
#include "test.h"
#include "search/timeman.h"
#include "search/transposition.h"

static bool set_fen(Position *pos, const char *fen)
{
    char err[160];
    bool ok = position_from_fen(pos, fen, err, sizeof err, NULL);
    CHECK_MSG(ok, "FEN %s: %s", fen, err);
    return ok;
}

/* ---- transposition table ---- */

TEST(tt_store_and_probe_round_trip)
{
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    Key key = 0x9E3779B97F4A7C15ULL;
    Move m = move_create(E2, E4, FLAG_DOUBLE_PUSH);
    tt_store(&tt, key, 3, m, -123, 45, 7, BOUND_EXACT);
    TTData d;
    if (CHECK(tt_probe(&tt, key, 3, &d))) {
        CHECK_EQ(d.move, m);
        CHECK_EQ(d.score, -123);
        CHECK_EQ(d.eval, 45);
        CHECK_EQ(d.depth, 7);
        CHECK_EQ(d.bound, BOUND_EXACT);
    }
    CHECK(!tt_probe(&tt, key ^ 1, 3, &d));
    CHECK(!tt_probe(&tt, key ^ (1ULL << 63), 3, &d));
    /* Quiescence depths (0, -1) and VALUE_NONE evals survive the packing. */
    tt_store(&tt, key + 77, 0, MOVE_NONE, 5, VALUE_NONE, -1, BOUND_UPPER);
    if (CHECK(tt_probe(&tt, key + 77, 0, &d))) {
        CHECK_EQ(d.depth, -1);
        CHECK_EQ(d.eval, VALUE_NONE);
        CHECK_EQ(d.bound, BOUND_UPPER);
        CHECK_EQ(d.move, MOVE_NONE);
    }
    tt_free(&tt);
}

TEST(tt_mate_scores_are_relative_to_the_node)
{
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    Key key = 0x0123456789ABCDEFULL;
    /* Found at ply 5: mate 8 plies from the root is 3 plies from this node. */
    tt_store(&tt, key, 5, MOVE_NONE, VALUE_MATE - 8, 0, 4, BOUND_LOWER);
    TTData d;
    if (CHECK(tt_probe(&tt, key, 2, &d)))
        CHECK_EQ(d.score, VALUE_MATE - 5); /* reached at ply 2: 3 more plies */
    if (CHECK(tt_probe(&tt, key, 5, &d)))
        CHECK_EQ(d.score, VALUE_MATE - 8);
    tt_store(&tt, key + 1, 4, MOVE_NONE, -VALUE_MATE + 10, 0, 4, BOUND_UPPER);
    if (CHECK(tt_probe(&tt, key + 1, 1, &d)))
        CHECK_EQ(d.score, -VALUE_MATE + 7);
    /* Ordinary scores are not touched. */
    tt_store(&tt, key + 2, 9, MOVE_NONE, 250, 0, 4, BOUND_EXACT);
    if (CHECK(tt_probe(&tt, key + 2, 1, &d)))
        CHECK_EQ(d.score, 250);
    tt_free(&tt);
}

/* Finds the stored entry of key (any slot of any bucket). */
static TTEntry *find_entry(TranspositionTable *tt, Key key)
{
    for (uint64_t b = 0; b < tt->bucket_count; b++)
        for (int i = 0; i < TT_BUCKET_SIZE; i++) {
            TTEntry *e = &tt->buckets[b].entries[i];
            if ((atomic_load(&e->key_xor_data) ^ atomic_load(&e->data)) == key && atomic_load(&e->data))
                return e;
        }
    return NULL;
}

TEST(tt_torn_entry_is_rejected)
{
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    Key key_a = 0xAAAA5555AAAA5555ULL;
    tt_store(&tt, key_a, 0, move_create(G1, F3, FLAG_QUIET), 17, 3, 9, BOUND_EXACT);
    TTEntry *e = find_entry(&tt, key_a);
    if (!CHECK(e != NULL))
        return;
    TTData d;
    CHECK(tt_probe(&tt, key_a, 0, &d));
    /* Another writer's data word lands without its key word (a torn write). */
    uint64_t other = tt_pack(move_create(B1, C3, FLAG_QUIET), -400, 0, 12, BOUND_LOWER, tt.age);
    uint64_t saved = atomic_load(&e->data);
    atomic_store(&e->data, other);
    CHECK(!tt_probe(&tt, key_a, 0, &d));
    /* And the other half: the key word of another position with our data. */
    atomic_store(&e->data, saved);
    atomic_store(&e->key_xor_data, 0x1234ULL ^ other);
    CHECK(!tt_probe(&tt, key_a, 0, &d));
    tt_free(&tt);
}

TEST(tt_replacement_prefers_shallow_and_old_entries)
{
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    /* Keys differing only in low bits map to the same bucket (index = high product bits). */
    Key base = 0x7A5B3C1D00000000ULL;
    TTData d;
    tt_store(&tt, base + 1, 0, MOVE_NONE, 1, 0, 20, BOUND_EXACT);
    tt_store(&tt, base + 2, 0, MOVE_NONE, 2, 0, 20, BOUND_EXACT);
    tt_store(&tt, base + 3, 0, MOVE_NONE, 3, 0, 20, BOUND_EXACT);
    tt_store(&tt, base + 4, 0, MOVE_NONE, 4, 0, 1, BOUND_EXACT);
    tt_store(&tt, base + 5, 0, MOVE_NONE, 5, 0, 2, BOUND_EXACT);
    CHECK(tt_probe(&tt, base + 1, 0, &d));
    CHECK(tt_probe(&tt, base + 2, 0, &d));
    CHECK(tt_probe(&tt, base + 3, 0, &d));
    CHECK(!tt_probe(&tt, base + 4, 0, &d)); /* the shallowest went */
    CHECK(tt_probe(&tt, base + 5, 0, &d));
    /* In the next search, old deep entries beat nothing: the oldest least deep goes. */
    tt_new_search(&tt);
    tt_store(&tt, base + 6, 0, MOVE_NONE, 6, 0, 5, BOUND_EXACT);
    CHECK(!tt_probe(&tt, base + 5, 0, &d));
    CHECK(tt_probe(&tt, base + 6, 0, &d));
    CHECK(tt_probe(&tt, base + 1, 0, &d));
    /* Same key: a shallower result does not erase a deeper one of this search... */
    tt_store(&tt, base + 6, 0, MOVE_NONE, 99, 0, 1, BOUND_LOWER);
    if (CHECK(tt_probe(&tt, base + 6, 0, &d)))
        CHECK_EQ(d.score, 6);
    /* ...but keeps the move when a new result without a move replaces it. */
    Move m = move_create(D2, D4, FLAG_DOUBLE_PUSH);
    tt_store(&tt, base + 7, 0, m, 1, 0, 3, BOUND_LOWER);
    tt_store(&tt, base + 7, 0, MOVE_NONE, 2, 0, 4, BOUND_UPPER);
    if (CHECK(tt_probe(&tt, base + 7, 0, &d))) {
        CHECK_EQ(d.move, m);
        CHECK_EQ(d.score, 2);
    }
    tt_free(&tt);
}

TEST(tt_hashfull_counts_current_search_only)
{
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    CHECK_EQ(tt_hashfull(&tt), 0);
    uint64_t s = 12345;
    for (int i = 0; i < 200000; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        tt_store(&tt, s, 0, MOVE_NONE, 0, 0, 1, BOUND_EXACT);
    }
    int full = tt_hashfull(&tt);
    CHECK_MSG(full > 500 && full <= 1000, "hashfull %d after filling", full);
    tt_new_search(&tt);
    CHECK_EQ(tt_hashfull(&tt), 0);
    tt_clear(&tt, 2);
    TTData d;
    CHECK(!tt_probe(&tt, s, 0, &d));
    CHECK(tt_resize(&tt, 3));
    CHECK_EQ(tt.size_mb, 3);
    CHECK_EQ(tt.bucket_count, (3u << 20) / sizeof(TTBucket));
    CHECK_EQ(((uintptr_t)tt.buckets) % 4096, 0);
    tt_free(&tt);
}

/* ---- SEE ---- */

/* The exchange value v: see_ge holds at v and fails at v + 1. */
static void check_see(const char *fen, const char *move, int value)
{
    Position pos;
    if (!set_fen(&pos, fen))
        return;
    Move m = move_from_uci(&pos, move);
    if (!CHECK_MSG(m != MOVE_NONE, "move %s in %s", move, fen))
        return;
    CHECK_MSG(see_ge(&pos, m, value), "see(%s) >= %d in %s", move, value, fen);
    CHECK_MSG(!see_ge(&pos, m, value + 1), "see(%s) < %d in %s", move, value + 1, fen);
}

TEST(see_known_exchanges)
{
    const int P = SEE_VALUE[PAWN], N = SEE_VALUE[KNIGHT], R = SEE_VALUE[ROOK], Q = SEE_VALUE[QUEEN];
    check_see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", P);          /* free pawn */
    check_see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", P - N); /* x-rays */
    check_see("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", N - P);
    check_see("4k3/8/5p2/4p3/8/8/8/Q3K3 w - - 0 1", "a1e5", P - Q);
    check_see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", P);                        /* en passant */
    check_see("4k3/4p3/8/8/8/8/4R3/4K3 w - - 0 1", "e2e7", P - R);                    /* king recaptures */
    check_see("4k3/4p3/8/8/8/8/4R3/4RK2 w - - 0 1", "e2e7", P);                       /* ...unless defended */
    check_see("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0);                           /* castling */
    check_see("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q", R - P);                     /* capture-promotion */
}

/* ---- move picker ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 17;
}

/* Runs the picker in main mode and checks it returns every legal move exactly once. */
static bool picker_covers(Position *pos, const History *h, Move tt, const Move *killers, Move counter)
{
    MoveList legal;
    generate_legal(pos, &legal);
    int seen[MAX_MOVES] = { 0 };
    MovePicker mp;
    movepicker_init(&mp, pos, h, tt, killers, counter, NULL, NULL);
    Move m;
    int n = 0;
    bool ok = true;
    while ((m = movepicker_next(&mp, false)) != MOVE_NONE && n < 2 * MAX_MOVES) {
        n++;
        int idx = -1;
        for (int i = 0; i < legal.count; i++)
            if (legal.moves[i] == m)
                idx = i;
        if (idx < 0 || seen[idx]++) {
            ok = false;
            break;
        }
    }
    return ok && n == legal.count;
}

TEST(movepicker_yields_each_legal_move_once)
{
    char path[512], line[512];
    FILE *f = fopen(test_data_path("perftsuite.epd", path, sizeof path), "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s", path))
        return;
    History *h = history_new();
    uint64_t s = 99;
    int positions = 0, failures = 0;
    static Position pos;
    while (fgets(line, sizeof line, f)) {
        char err[160];
        char *semicolon = strchr(line, ';');
        if (semicolon)
            *semicolon = '\0';
        if (!position_from_fen(&pos, line, err, sizeof err, NULL))
            continue;
        /* The position and a few random descendants. */
        for (int step = 0; step < 6; step++) {
            MoveList legal;
            generate_legal(&pos, &legal);
            if (legal.count == 0)
                break;
            for (int trial = 0; trial < 4; trial++) {
                Move pick = legal.moves[rng_next(&s) % legal.count];
                Move junk = (Move)rng_next(&s);
                Move tt = trial == 0 ? pick : trial == 1 ? junk : trial == 2 ? MOVE_NONE : legal.moves[0];
                Move killers[2] = { legal.moves[rng_next(&s) % legal.count], (Move)rng_next(&s) };
                Move counter = trial == 3 ? tt : legal.moves[rng_next(&s) % legal.count];
                /* Nonsense history values must not matter either. */
                h->butterfly[pos.side][move_from(pick)][move_to(pick)] = (int16_t)(rng_next(&s) % 30000 - 15000);
                positions++;
                if (!picker_covers(&pos, h, tt, killers, counter) && ++failures <= 5) {
                    char fen[128];
                    position_to_fen(&pos, fen);
                    CHECK_MSG(false, "picker does not cover the legal moves of %s", fen);
                }
            }
            make_move(&pos, legal.moves[rng_next(&s) % legal.count]);
        }
    }
    fclose(f);
    history_free(h);
    CHECK_EQ(failures, 0);
    CHECK_MSG(positions > 300, "only %d positions tried", positions);
}

/* Runs the picker to its end: true when every move it yields is one of expected[], none
 * twice (each found one is crossed out). *count gets the number yielded; *quiets, if
 * given, is increased by the quiet ones. */
static bool picker_yields_each_once(MovePicker *mp, Move *expected, int n_expected, int *count, int *quiets)
{
    Move m;
    bool ok = true;
    *count = 0;
    while ((m = movepicker_next(mp, false)) != MOVE_NONE && *count <= MAX_MOVES) {
        ++*count;
        bool found = false;
        for (int j = 0; j < n_expected; j++)
            if (expected[j] == m) {
                found = true;
                expected[j] = MOVE_NONE; /* each once */
            }
        ok &= found;
        if (quiets)
            *quiets += !move_is_tactical(m);
    }
    return ok;
}

TEST(movepicker_qsearch_yields_captures_or_evasions)
{
    const char *fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "4k3/8/8/8/1b6/8/8/R3K3 w Q - 0 1", /* in check: all evasions */
    };
    History *h = history_new();
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        Position pos;
        if (!set_fen(&pos, fens[i]))
            continue;
        Move expected[MAX_MOVES];
        int n_expected = (int)(generate_moves(&pos, expected, in_check(&pos) ? GEN_ALL : GEN_CAPTURES) - expected);
        MovePicker mp;
        movepicker_init_qsearch(&mp, &pos, h, MOVE_NONE, NULL);
        int n = 0;
        bool ok = picker_yields_each_once(&mp, expected, n_expected, &n, NULL);
        CHECK_MSG(ok && n == n_expected, "qsearch picker in %s: %d moves, expected %d", fens[i], n, n_expected);
    }
    history_free(h);
}

/* With the node's CheckInfo the quiescence picker adds every quiet non-promotion move
 * that gives check, once, after the captures, and no other quiet move. */
TEST(movepicker_qsearch_adds_the_quiet_checks)
{
    const char *fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", /* discovered checks */
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",      /* castling with check */
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "3k4/8/8/8/8/8/8/Q3K3 w - - 0 1",           /* a queen's many checks */
        "3k4/8/8/3N4/8/8/8/3RK3 w - - 0 1",         /* every knight move uncovers the rook */
    };
    History *h = history_new();
    int quiet_checks_seen = 0;
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        Position pos;
        if (!set_fen(&pos, fens[i]))
            continue;
        Move expected[MAX_MOVES], quiets[MAX_MOVES];
        int n_expected = (int)(generate_moves(&pos, expected, GEN_CAPTURES) - expected);
        int n_quiets = (int)(generate_moves(&pos, quiets, GEN_QUIETS) - quiets);
        for (int j = 0; j < n_quiets; j++)
            if (!move_is_promotion(quiets[j]) && move_gives_check(&pos, quiets[j]))
                expected[n_expected++] = quiets[j];
        CheckInfo ci;
        checkinfo_init(&ci, &pos);
        MovePicker mp;
        movepicker_init_qsearch(&mp, &pos, h, MOVE_NONE, &ci);
        int n = 0;
        bool ok = picker_yields_each_once(&mp, expected, n_expected, &n, &quiet_checks_seen);
        CHECK_MSG(ok && n == n_expected, "qsearch picker with checks in %s: %d moves, expected %d", fens[i], n, n_expected);
    }
    CHECK_MSG(quiet_checks_seen >= 10, "%d quiet checks", quiet_checks_seen);
    history_free(h);
}

/* ---- whole searches through the engine ---- */

typedef struct {
    SearchReport last;
    Move pv[MAX_PLY];
    int reports;
} Capture;

static void capture_iteration(void *ctx, const SearchReport *r)
{
    Capture *c = ctx;
    c->last = *r;
    int n = r->pv_length < MAX_PLY ? r->pv_length : MAX_PLY;
    memcpy(c->pv, r->pv, (size_t)n * sizeof(Move));
    c->last.pv = c->pv;
    c->reports++;
}

/* Searches fen (+ moves) with the given limits; returns the result, fills *cap. */
static SearchResult run_search(const char *fen, const char *const *moves, int move_count,
                               const SearchLimits *limits, Capture *cap)
{
    SearchResult none = { 0 };
    eval_init();
    search_init();
    Engine *e = engine_new();
    if (!CHECK(e != NULL))
        return none;
    char err[256];
    if (!CHECK_MSG(engine_set_position(e, fen, moves, move_count, err, sizeof err), "%s", err)) {
        engine_free(e);
        return none;
    }
    memset(cap, 0, sizeof *cap);
    SearchReporter rep = { capture_iteration, NULL, NULL, cap, NULL, NULL };
    if (!CHECK_MSG(engine_go(e, limits, &rep, err, sizeof err), "%s", err)) {
        engine_free(e);
        return none;
    }
    engine_wait(e);
    SearchResult r = engine_last_result(e);
    engine_free(e);
    return r;
}

TEST(search_finds_mates_with_their_distance)
{
    static const struct {
        const char *fen;
        int mate;
    } cases[] = {
        { "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2 },  /* WAC.001 */
        { "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", 2 },    /* WAC.004 */
        { "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2 },            /* WAC.005 */
        { "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", 3 },        /* WAC.050 */
        { "r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1", 3 },          /* WAC.057 */
        { "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1 },                          /* back rank */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        SearchLimits limits;
        limits_init(&limits);
        limits.mate = cases[i].mate;
        limits.movetime = 20000; /* a safety net: these take milliseconds */
        Capture cap;
        SearchResult r = run_search(cases[i].fen, NULL, 0, &limits, &cap);
        CHECK_MSG(cap.reports > 0 && cap.last.is_mate && cap.last.mate_moves == cases[i].mate,
                  "%s: expected mate %d, got %s %d", cases[i].fen, cases[i].mate,
                  cap.last.is_mate ? "mate" : "cp", cap.last.is_mate ? cap.last.mate_moves : cap.last.cp);
        CHECK_EQ(r.score, VALUE_MATE - (2 * cases[i].mate - 1));
        /* The PV is the whole mating line: 2N-1 plies ending in mate. */
        Position pos;
        if (set_fen(&pos, cases[i].fen) && CHECK_EQ(cap.last.pv_length, 2 * cases[i].mate - 1)) {
            for (int j = 0; j < cap.last.pv_length; j++) {
                if (!CHECK(move_is_legal(&pos, cap.last.pv[j])))
                    break;
                make_move(&pos, cap.last.pv[j]);
            }
            CHECK_MSG(in_check(&pos) && count_legal_moves(&pos) == 0, "PV of %s does not end in mate", cases[i].fen);
        }
    }
}

TEST(search_scores_rule_draws_zero)
{
    SearchLimits limits;
    limits_init(&limits);
    limits.depth = 7;
    Capture cap;
    /* K+R v K with the fifty-move counter at 99: every move completes the hundredth ply. */
    SearchResult r = run_search("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", NULL, 0, &limits, &cap);
    CHECK_EQ(r.score, 0);
    r = run_search("8/8/8/4k3/8/8/8/R3K3 w - - 0 80", NULL, 0, &limits, &cap);
    CHECK_MSG(r.score > 300, "the same position without the counter: %d", r.score);

    /* Repetition through the game history: White, a queen down, can repeat the position
     * after Ng3-h1 for the third time. */
    const char *fen = "kq6/8/8/8/8/8/8/K6N w - - 0 1";
    const char *moves[] = { "h1g3", "b8c8", "g3h1", "c8b8", "h1g3", "b8c8", "g3h1", "c8b8", "h1g3", "b8c8" };
    r = run_search(fen, moves, 10, &limits, &cap);
    CHECK_EQ(r.score, 0);
    char mv[8];
    CHECK_STR_EQ(move_to_uci(r.best, mv), "g3h1");
    /* Without that history the same position is lost. */
    r = run_search("k1q5/8/8/8/8/6N1/8/K7 w - - 0 1", NULL, 0, &limits, &cap);
    CHECK_MSG(r.score < -300, "without history: %d", r.score);

    /* Insufficient material. */
    r = run_search("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", NULL, 0, &limits, &cap);
    CHECK_EQ(r.score, 0);
}

TEST(search_respects_searchmoves_multipv_and_nodes)
{
    SearchLimits limits;
    limits_init(&limits);
    limits.depth = 6;
    Position pos;
    if (!set_fen(&pos, START_FEN))
        return;
    limits.searchmoves[0] = move_from_uci(&pos, "a2a3");
    limits.searchmoves[1] = move_from_uci(&pos, "h2h3");
    limits.searchmoves_count = 2;
    Capture cap;
    SearchResult r = run_search(NULL, NULL, 0, &limits, &cap);
    CHECK(r.best == limits.searchmoves[0] || r.best == limits.searchmoves[1]);

    limits_init(&limits);
    limits.nodes = 5000;
    r = run_search(NULL, NULL, 0, &limits, &cap);
    CHECK(r.best != MOVE_NONE);
    CHECK_MSG(r.nodes >= 5000 && r.nodes < 5000 + 2000, "nodes %llu for a 5000 limit", (unsigned long long)r.nodes);

    /* No legal move: mate and stalemate give no best move. */
    limits_init(&limits);
    limits.depth = 3;
    r = run_search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", NULL, 0, &limits, &cap);
    CHECK_EQ(r.best, MOVE_NONE);
    CHECK_EQ(r.score, -VALUE_MATE);
    r = run_search("7k/8/6QK/8/8/8/8/8 b - - 0 1", NULL, 0, &limits, &cap);
    CHECK_EQ(r.best, MOVE_NONE);
    CHECK_EQ(r.score, 0);
}

TEST(search_is_draw_rules)
{
    Position pos;
    if (set_fen(&pos, "8/8/8/4k3/8/8/8/4KN2 w - - 0 1"))
        CHECK(search_is_draw(&pos, 1));
    if (set_fen(&pos, "8/8/8/4k3/8/8/8/R3K3 w - - 100 80"))
        CHECK(search_is_draw(&pos, 1));
    if (set_fen(&pos, "8/8/8/4k3/8/8/8/R3K3 w - - 99 80"))
        CHECK(!search_is_draw(&pos, 1));
    /* Mate on the hundredth ply is still mate. */
    if (set_fen(&pos, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80"))
        CHECK(!search_is_draw(&pos, 1));
}

/* ---- time, contempt ---- */

TEST(timeman_limits_are_safe)
{
    SearchLimits l;
    TimeManager tm;
    /* 1 s + 10 ms: a small share, well inside the clock. */
    limits_init(&l);
    l.time[WHITE] = 1000;
    l.inc[WHITE] = 10;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK(tm.soft_ms > 0 && tm.soft_ms <= tm.hard_ms);
    CHECK_MSG(tm.hard_ms <= 1000 - 50, "hard %lld", (long long)tm.hard_ms);
    CHECK_MSG(tm.soft_ms < 100, "soft %lld", (long long)tm.soft_ms);
    /* Nearly flagging: still a positive, tiny budget. */
    l.time[WHITE] = 30;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK(tm.hard_ms >= 1 && tm.hard_ms <= 10);
    /* Last move before the control may use much of the clock, not all. */
    l.time[WHITE] = 10000;
    l.inc[WHITE] = 0;
    l.movestogo = 1;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK(tm.hard_ms > 4000 && tm.hard_ms < 10000 - 50);
    /* Black's clock is used for Black. */
    limits_init(&l);
    l.time[WHITE] = 100000;
    l.time[BLACK] = 2000;
    timeman_init(&tm, &l, BLACK, 1, 50, 0);
    CHECK(tm.hard_ms < 2000);
    /* movetime, infinite, none. */
    limits_init(&l);
    l.movetime = 500;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK_EQ(tm.hard_ms, 450);
    CHECK(!timeman_stop_iterating(&tm, 400, 0.5)); /* all of it is used */
    limits_init(&l);
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK(tm.hard_ms < 0 && !timeman_hard_expired(&tm, 1000000));
    /* Instability asks for more time, an easy move for less. */
    CHECK(timeman_scale(2.0, 0, 0.5, 0) > timeman_scale(0.0, 0, 0.5, 0));
    CHECK(timeman_scale(0.0, 80, 0.5, 0) > timeman_scale(0.0, 0, 0.5, 0));
    CHECK(timeman_scale(0.0, 0, 0.95, 6) < timeman_scale(0.0, 0, 0.5, 6));
}

TEST(timeman_scales_continuously_with_the_best_moves_share)
{
    /* The less of the effort the best move took, the more time; no step anywhere. */
    double last = timeman_scale(0.0, 0, 0.0, 6);
    for (int i = 1; i <= 100; i++) {
        double scale = timeman_scale(0.0, 0, i / 100.0, 6);
        CHECK_MSG(scale <= last && last - scale < 0.05, "share %.2f: %.3f after %.3f", i / 100.0, scale, last);
        last = scale;
    }
    CHECK(timeman_scale(0.0, 0, 0.3, 6) > 1.2 && timeman_scale(0.0, 0, 0.98, 6) < 0.6);
    /* An early iteration's share is noise: it does not cut the time. */
    CHECK(timeman_scale(0.0, 0, 0.98, 0) >= 1.0);
}

TEST(timeman_plans_for_the_moves_left)
{
    SearchLimits l;
    TimeManager early, late, with_inc;
    limits_init(&l);
    l.time[WHITE] = 60000;
    timeman_init(&early, &l, WHITE, 10, 50, 0);
    timeman_init(&late, &l, WHITE, 60, 50, 0);
    /* Fewer moves are left to play later in a game: a larger share of the same clock. */
    CHECK_MSG(late.soft_ms > early.soft_ms * 5 / 4, "early %lld late %lld", (long long)early.soft_ms,
              (long long)late.soft_ms);
    /* ...but a bounded one, which keeps the clock for the moves after. */
    CHECK(late.soft_ms <= 60000 / 10 && late.hard_ms <= 60000 * 3 / 4);
    /* The increment comes back after the move: it is spent whole. */
    l.inc[WHITE] = 1000;
    timeman_init(&with_inc, &l, WHITE, 10, 50, 0);
    CHECK_MSG(with_inc.soft_ms - early.soft_ms >= 1000, "without %lld with %lld", (long long)early.soft_ms,
              (long long)with_inc.soft_ms);
    /* A movestogo control plans for exactly its moves, whatever the move number. */
    l.inc[WHITE] = 0;
    l.movestogo = 20;
    timeman_init(&early, &l, WHITE, 10, 50, 0);
    timeman_init(&late, &l, WHITE, 60, 50, 0);
    CHECK_EQ(early.soft_ms, late.soft_ms);
}

TEST(timeman_huge_limits_do_not_overflow)
{
    /* Protocol numbers up to INT64_MAX: cut to LIMITS_MAX_MS, never a wrapped budget. */
    SearchLimits l;
    TimeManager tm;
    limits_init(&l);
    l.time[WHITE] = INT64_MAX;
    l.movestogo = 1;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK_MSG(tm.hard_ms > LIMITS_MAX_MS / 2 && tm.hard_ms <= LIMITS_MAX_MS, "hard %lld", (long long)tm.hard_ms);
    limits_init(&l);
    l.time[WHITE] = 60000;
    l.inc[WHITE] = INT64_MAX;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK_MSG(tm.soft_ms > 1000 && tm.soft_ms <= tm.hard_ms && tm.hard_ms < 60000, "soft %lld hard %lld",
              (long long)tm.soft_ms, (long long)tm.hard_ms);
    limits_init(&l);
    l.movetime = INT64_MAX;
    timeman_init(&tm, &l, WHITE, 1, 50, 0);
    CHECK_EQ(tm.hard_ms, LIMITS_MAX_MS - 50);
    CHECK_EQ(limits_clamp_ms(-5), 0);
    CHECK_EQ(limits_clamp_ms(INT64_MAX), LIMITS_MAX_MS);
}

TEST(contempt_follows_rating_difference)
{
    OpponentInfo weak, strong, unknown;
    CHECK(opponent_parse("none 1500 human Some Body", &weak));
    CHECK_EQ(weak.rating, 1500);
    CHECK(!weak.computer);
    CHECK(opponent_parse("GM 2900 computer Big Engine", &strong));
    CHECK(strong.computer);
    CHECK_STR_EQ(strong.title, "GM");
    CHECK(opponent_parse("none none computer X", &unknown));
    CHECK(!opponent_parse("1500 human", &unknown));
    CHECK(!opponent_parse("XX 1500 human A", &unknown));
    CHECK(contempt_for_opponent(10, 2700, &weak) > 10);
    CHECK(contempt_for_opponent(10, 2700, &strong) < 10);
    CHECK_EQ(contempt_for_opponent(10, 2700, NULL), 10);
    OpponentInfo none_rating;
    opponent_parse("none none human A", &none_rating);
    CHECK_EQ(contempt_for_opponent(10, 2700, &none_rating), 10);
    CHECK(strength_node_limit(1200) < strength_node_limit(2000));
    /* The calibration table is interpolated: the cap never falls as the setting rises,
     * the candidate lines never grow, and every setting is limited, the top one too
     * (full strength is UCI_LimitStrength off). The lines fall one at a time. */
    uint64_t previous = 0;
    int previous_lines = 4, seen_lines = 0;
    for (int elo = STRENGTH_MIN_ELO; elo <= STRENGTH_MAX_ELO; elo++) {
        uint64_t cap = strength_node_limit(elo);
        int lines = strength_candidate_lines(elo);
        if (!CHECK_MSG(cap > 0 && cap >= previous, "node cap %llu at %d after %llu", (unsigned long long)cap,
                       elo, (unsigned long long)previous))
            break;
        if (!CHECK_MSG(lines >= 1 && (lines == previous_lines || lines == previous_lines - 1),
                       "%d lines at %d after %d", lines, elo, previous_lines))
            break;
        seen_lines |= 1 << lines;
        previous = cap;
        previous_lines = lines;
    }
    CHECK_EQ(seen_lines, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4));
    CHECK_EQ(strength_candidate_lines(STRENGTH_MAX_ELO), 1);
    CHECK_EQ(strength_candidate_lines(STRENGTH_MIN_ELO), 4);
    CHECK_EQ(strength_node_limit(STRENGTH_MAX_ELO + 500), strength_node_limit(STRENGTH_MAX_ELO));
    /* A measured point plays its level exactly: 2133 on Stockfish's scale is level 2200,
     * 256 nodes doubled every 120 levels from 1000. */
    CHECK_EQ(strength_node_limit(2133), 262144);
}

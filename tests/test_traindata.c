/* The training-data format (formats/traindata.h): records round-trip, damage and torn
 * tails are told apart, replay walks the scored positions of real games. */
#include <string.h>

#include "board/movegen.h"
#include "formats/movecode_game.h"
#include "formats/traindata.h"
#include "test.h"
#include "util/random.h"

/* A random legal game of up to max plies from fen, into g (scores: a function of the ply,
 * every third position unscored). */
static void random_game(const char *fen, bool chess960, uint64_t seed, int max, TrainGame *g)
{
    static Position pos, start;
    char err[160];
    position_from_fen(&start, fen, err, sizeof err, NULL);
    position_set_chess960(&start, chess960);
    pos = start;
    Move moves[TRAIN_MAX_PLIES];
    int n = 0;
    while (n < max) {
        MoveList list;
        generate_legal(&pos, &list);
        if (list.count == 0)
            break;
        moves[n] = list.moves[splitmix64(&seed) % (uint64_t)list.count];
        make_move(&pos, moves[n++]);
        position_bound_history(&pos, 16);
    }
    memset(g, 0, sizeof *g);
    g->standard_start = !strcmp(fen, START_FEN) && !chess960;
    g->chess960 = chess960;
    if (!g->standard_start)
        snprintf(g->fen, sizeof g->fen, "%s", fen);
    g->plies = movecode_encode_game(&start, moves, n, g->codes);
    g->first_scored = n > 4 ? 4 : n;
    g->result = (int)(seed % 3);
    for (int i = g->first_scored; i < g->plies; i++)
        g->scores[i] = i % 3 == 0 ? TRAIN_NO_SCORE : (int16_t)(i * 37 - 900);
}

static bool same_game(const TrainGame *a, const TrainGame *b)
{
    if (a->standard_start != b->standard_start || a->chess960 != b->chess960 || strcmp(a->fen, b->fen)
        || a->result != b->result || a->plies != b->plies || a->first_scored != b->first_scored
        || memcmp(a->codes, b->codes, (size_t)a->plies))
        return false;
    for (int i = a->first_scored; i < a->plies; i++)
        if (a->scores[i] != b->scores[i])
            return false;
    return true;
}

TEST(traindata_records_round_trip)
{
    static TrainGame g, back;
    static uint8_t buf[TRAIN_RECORD_MAX];
    const char *fens[] = { START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                           "8/2P5/8/8/8/8/5k1p/K7 w - - 0 1" };
    for (int f = 0; f < 3; f++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            random_game(fens[f], false, seed, 300, &g);
            size_t n = train_game_encode(&g, buf);
            size_t used;
            char err[128];
            if (!CHECK(n > 0) || !CHECK_EQ(train_game_decode(buf, n, &back, &used, err, sizeof err), TRAIN_OK))
                return;
            CHECK_EQ(used, n);
            CHECK_MSG(same_game(&g, &back), "fen %d seed %llu", f, (unsigned long long)seed);
            /* One byte per move and two per scored position, plus a small fixed part. */
            CHECK(n <= (size_t)(g.plies + 2 * (g.plies - g.first_scored) + 12 + (g.standard_start ? 0 : 128)));
        }
}

TEST(traindata_chess960_game_round_trips)
{
    static TrainGame g, back;
    static uint8_t buf[TRAIN_RECORD_MAX];
    random_game("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", true, 7, 200, &g);
    size_t used, n = train_game_encode(&g, buf);
    char err[128];
    CHECK_EQ(train_game_decode(buf, n, &back, &used, err, sizeof err), TRAIN_OK);
    CHECK(same_game(&g, &back));
    CHECK(back.chess960);
}

static int visited, last_score;
static bool count_visit(void *ctx, const Position *pos, int score, int result)
{
    (void)ctx, (void)pos, (void)result;
    visited++;
    last_score = score;
    return true;
}

TEST(traindata_replay_visits_scored_positions)
{
    static TrainGame g;
    random_game(START_FEN, false, 3, 120, &g);
    int expected = 0;
    for (int i = g.first_scored; i < g.plies; i++)
        expected += g.scores[i] != TRAIN_NO_SCORE;
    visited = 0;
    CHECK_EQ(train_game_replay(&g, count_visit, NULL), g.plies);
    CHECK_EQ(visited, expected);
    /* A code that names no legal move stops the replay there. */
    g.codes[10] = 0x0F; /* king vector 15: never valid */
    visited = 0;
    CHECK_EQ(train_game_replay(&g, count_visit, NULL), 10);
}

TEST(traindata_damage_and_torn_tails)
{
    static TrainGame g, back;
    static uint8_t buf[TRAIN_RECORD_MAX];
    random_game(START_FEN, false, 11, 80, &g);
    size_t used, n = train_game_encode(&g, buf);
    char err[128];
    for (size_t cut = 0; cut < n; cut++)
        CHECK_MSG(train_game_decode(buf, cut, &back, &used, err, sizeof err) == TRAIN_TORN, "cut at %zu", cut);
    for (size_t i = 2; i < n; i++) {
        buf[i] ^= 0x40;
        CHECK_MSG(train_game_decode(buf, n, &back, &used, err, sizeof err) == TRAIN_DAMAGED, "byte %zu", i);
        CHECK_EQ(used, n); /* the reader can step over it */
        buf[i] ^= 0x40;
    }
    /* A game that cannot be stored is refused, not truncated. */
    g.first_scored = g.plies + 1;
    CHECK_EQ(train_game_encode(&g, buf), 0);
}

TEST(traindata_header_round_trip_and_refusals)
{
    TrainHeader h = { 5000, 0x123456789ULL, 250, 250, 7 }, back;
    uint8_t buf[TRAIN_HEADER_SIZE];
    char err[128];
    train_header_encode(&h, buf);
    CHECK(train_header_decode(buf, &back, err, sizeof err));
    CHECK_EQ(back.nodes, 5000);
    CHECK_EQ(back.seed, 0x123456789ULL);
    CHECK_EQ(back.first_game, 250);
    CHECK_EQ(back.games, 250);
    CHECK_EQ(back.eval_id, 7);
    buf[20] ^= 1;
    CHECK(!train_header_decode(buf, &back, err, sizeof err));
    buf[20] ^= 1;
    buf[0] = 'X';
    CHECK(!train_header_decode(buf, &back, err, sizeof err));
}

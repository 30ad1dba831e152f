/* Incremental accumulators (nnue/nnue_eval.c) equal a refresh from the board, and the
 * output a plain reference, for plain and HM nets: at every node of perft trees (null
 * moves included) on positions with castling both sides, en passant, promotions,
 * Chess960 castling and kings on the d/e line; along random games evaluated at random
 * intervals (multi-move replays and the refresh fallback); and going back and forth in
 * a game, so that slots left behind by a replay over a king's crossing are met again.
 * An HM net's refresh is checked on its own against the plain refresh of the mirrored
 * board. The nets are random: what is tested is the arithmetic, not chess. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/fen.h"
#include "board/movegen.h"
#include "nnue/nnue_eval.h"
#include "nnue_testnet.h"
#include "test.h"
#include "util/random.h"

static const char *MAPPING_NAME[NNUE_MAP_COUNT] = { "plain", "HM" };

static Network *random_net(uint64_t seed, NnueMapping mapping)
{
    static uint8_t bytes[NNUE_FILE_MAX];
    size_t size;
    return nnue_test_net(seed, mapping, bytes, &size);
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
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3 },                                  /* castling both sides */
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 5 },                                     /* kings on the d/e line */
        { "1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R w BHbh - 0 1", 3 },                    /* Chess960: c1 to g1 */
    };
    NnueState *state = calloc(1, sizeof *state);
    if (!CHECK(state))
        return;
    static Position pos;
    char err[160];
    for (int mapping = NNUE_MAP_PLAIN; mapping < NNUE_MAP_COUNT; mapping++) {
        Network *net = random_net(3, (NnueMapping)mapping);
        if (!CHECK(net))
            continue;
        nnue_state_reset(state);
        state->updates = state->refreshes = 0;
        for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
            if (!CHECK_MSG(position_from_fen(&pos, cases[c].fen, err, sizeof err, NULL), "%s: %s", cases[c].fen, err))
                continue;
            Walk w = { net, state, 0, 0, { { 0 } } };
            walk(&w, &pos, cases[c].depth);
            CHECK_MSG(w.bad == 0, "%s net: %ld of %ld nodes differ in %s", MAPPING_NAME[mapping], w.bad, w.nodes,
                      cases[c].fen);
        }
        CHECK(state->updates > state->refreshes); /* the incremental path was the one tested */
        network_free(net);
    }
    free(state);
}

/* What a game of random moves met: king moves across the d/e line, castlings each way. */
typedef struct {
    long crossings, castles[2];
} Seen;

static void note_move(Seen *seen, const Position *pos, Move m)
{
    if (move_is_castle(m))
        seen->castles[move_flags(m) == FLAG_CASTLE_QUEEN]++;
    if (type_of(piece_on(pos, move_from(m))) == KING && ((move_from(m) ^ move_to(m)) & 4))
        seen->crossings++;
}

/* A random legal move, castling whenever it can (so that games castle often). */
static Move random_move(Position *pos, uint64_t *rng)
{
    MoveList list;
    generate_legal(pos, &list);
    if (list.count == 0)
        return MOVE_NONE;
    for (int i = 0; i < list.count; i++)
        if (move_is_castle(list.moves[i]) && splitmix64(rng) % 2)
            return list.moves[i];
    return list.moves[splitmix64(rng) % (uint64_t)list.count];
}

static const char *STARTS[] = {
    START_FEN,
    "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1",
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1",
    "1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R w BHbh - 0 1",
};

static void start_game(Position *pos, NnueState *state, int game)
{
    char err[160];
    position_from_fen(pos, STARTS[game % 4], err, sizeof err, NULL);
    nnue_state_reset(state);
}

/* Every evaluation of the random games matched a refresh, and the games went where the
 * incremental code has its special cases. */
static void check_random_games(const Walk *w, const Seen *seen, NnueMapping mapping)
{
    CHECK_MSG(w->bad == 0, "%s net: %ld of %ld evaluations differ", MAPPING_NAME[mapping], w->bad,
              w->nodes);
    CHECK_MSG(seen->crossings > 100 && seen->castles[0] > 10 && seen->castles[1] > 10,
              "%ld crossings, %ld and %ld castlings", seen->crossings, seen->castles[0],
              seen->castles[1]);
}

TEST(nnue_incremental_equals_refresh_along_random_games)
{
    NnueState *state = calloc(1, sizeof *state);
    if (!CHECK(state))
        return;
    static Position pos;
    for (int mapping = NNUE_MAP_PLAIN; mapping < NNUE_MAP_COUNT; mapping++) {
        Network *net = random_net(4, (NnueMapping)mapping);
        if (!CHECK(net))
            continue;
        uint64_t rng = 99;
        Walk w = { net, state, 0, 0, { { 0 } } };
        Seen seen = { 0, { 0, 0 } };
        for (int game = 0; game < 60; game++) {
            start_game(&pos, state, game);
            int skip = 0;
            for (int ply = 0; ply < 300; ply++) {
                /* Evaluate after a random number of plies, so that replays of several moves
                 * and the refresh fallback are both taken. */
                if (skip-- <= 0) {
                    compare_here(&w, &pos);
                    skip = (int)(splitmix64(&rng) % 12);
                }
                Move m = random_move(&pos, &rng);
                if (m == MOVE_NONE)
                    break;
                note_move(&seen, &pos, m);
                make_move(&pos, m);
                position_bound_history(&pos, 32);
            }
        }
        check_random_games(&w, &seen, (NnueMapping)mapping);
        network_free(net);
    }
    free(state);
}

/* Moves made and taken back at random, evaluating now and then: a replay that passed a
 * king's crossing leaves slots behind it, which later evaluations find again. */
TEST(nnue_incremental_equals_refresh_going_back_and_forth)
{
    NnueState *state = calloc(1, sizeof *state);
    if (!CHECK(state))
        return;
    static Position pos;
    for (int mapping = NNUE_MAP_PLAIN; mapping < NNUE_MAP_COUNT; mapping++) {
        Network *net = random_net(6, (NnueMapping)mapping);
        if (!CHECK(net))
            continue;
        uint64_t rng = 7;
        Walk w = { net, state, 0, 0, { { 0 } } };
        Seen seen = { 0, { 0, 0 } };
        for (int game = 0; game < 40; game++) {
            start_game(&pos, state, game);
            Move line[64];
            int depth = 0;
            for (int step = 0; step < 600; step++) {
                uint64_t r = splitmix64(&rng) % 10;
                if (r < 3) {
                    compare_here(&w, &pos);
                } else if (r < 6 && depth > 0) {
                    unmake_move(&pos, line[--depth]);
                } else if (depth < 64) {
                    Move m = random_move(&pos, &rng);
                    if (m == MOVE_NONE)
                        continue;
                    note_move(&seen, &pos, m);
                    make_move(&pos, m);
                    line[depth++] = m;
                }
            }
        }
        check_random_games(&w, &seen, (NnueMapping)mapping);
        network_free(net);
    }
    free(state);
}

/* pos with files a-h swapped, no castling rights or en-passant square (the accumulators
 * read neither). */
static bool mirrored(const Position *pos, Position *out)
{
    char board[SQUARE_NB], fen[100], err[160];
    for (int sq = 0; sq < SQUARE_NB; sq++)
        board[sq ^ 7] = piece_on(pos, sq) == NO_PIECE ? 0 : fen_piece_char(piece_on(pos, sq));
    fen_from_squares(board, pos->side, fen);
    return position_from_fen(out, fen, err, sizeof err, NULL);
}

TEST(nnue_hm_refresh_is_the_plain_refresh_of_the_mirrored_board)
{
    Network *hm = random_net(8, NNUE_MAP_HM), *plain = random_net(8, NNUE_MAP_PLAIN);
    if (!CHECK(hm && plain))
        return;
    static Position pos, mirror;
    static int16_t a[COLOR_NB][NNUE_HIDDEN], b[COLOR_NB][NNUE_HIDDEN], c[COLOR_NB][NNUE_HIDDEN];
    char err[160];
    uint64_t rng = 5;
    long bad = 0, kings_right = 0, kings_left = 0, differ = 0;
    for (int game = 0; game < 30; game++) {
        position_from_fen(&pos, STARTS[game % 4], err, sizeof err, NULL);
        for (int ply = 0; ply < 120; ply++) {
            Move m = random_move(&pos, &rng);
            if (m == MOVE_NONE || !CHECK(mirrored(&pos, &mirror)))
                break;
            /* Each perspective sees the board as it is when its king is on files a-d,
             * mirrored when it is on e-h. */
            nnue_refresh(hm, &pos, a);
            nnue_refresh(plain, &pos, b);
            nnue_refresh(plain, &mirror, c);
            for (int side = WHITE; side <= BLACK; side++) {
                bool right = king_square(&pos, side) & 4;
                kings_right += right, kings_left += !right;
                bad += memcmp(a[side], right ? c[side] : b[side], sizeof a[side]) != 0;
            }
            /* So the HM net scores a board and its mirror image alike, which a plain net
             * (with these random weights) does not. */
            int hm_here = nnue_output(hm, (const int16_t(*)[NNUE_HIDDEN])a, pos.side, popcount(pieces(&pos)));
            nnue_refresh(hm, &mirror, a);
            bad += hm_here != nnue_output(hm, (const int16_t(*)[NNUE_HIDDEN])a, pos.side, popcount(pieces(&pos)));
            differ += nnue_output(plain, (const int16_t(*)[NNUE_HIDDEN])b, pos.side, popcount(pieces(&pos)))
                   != nnue_output(plain, (const int16_t(*)[NNUE_HIDDEN])c, pos.side, popcount(pieces(&pos)));
            make_move(&pos, m);
            position_bound_history(&pos, 32);
        }
    }
    CHECK_MSG(bad == 0, "%ld differences", bad);
    CHECK_MSG(kings_right > 100 && kings_left > 100 && differ > 100, "kings on e-h %ld, on a-d %ld; plain differs %ld",
              kings_right, kings_left, differ);
    network_free(hm);
    network_free(plain);
}

/* Move codes over whole games: the tracker (the article's examples, long random games)
 * against from-scratch numbering, the game functions, and every legal move of every
 * position of the copied PGN files, variations included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/movecode.h"
#include "formats/movecode_game.h"
#include "movecode_check.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "formats/pgn.h"
#include "board/position_copy.h"
#include "test.h"

static bool tracker_pawns_are(const MoveCodeTracker *t, Color c, const char *squares)
{
    const MoveCodeList *l = &t->list[c][MC_PAWNS];
    char got[64] = "";
    for (int i = 0; i < l->count; i++) {
        char sq[4] = { (char)('a' + file_of(l->square[i])), (char)('1' + rank_of(l->square[i])), ' ', 0 };
        strcat(got, sq);
    }
    return CHECK_MSG(!strcmp(got, squares), "pawns \"%s\", expected \"%s\"", got, squares);
}

TEST(movecode_tracker_article_examples)
{
    static const struct { const char *fen, *move, *before, *after; } CASES[] = {
        { "4k3/8/8/8/8/1p6/PPP5/4K3 w - - 0 1", "axb3", "a2 b2 c2 ", "b2 b3 c2 " },
        { "4k3/8/2p5/1PP2P2/8/2P5/2P5/4K3 w - - 0 1", "bxc6", "b5 c2 c3 c5 f5 ", "c2 c3 c5 c6 f5 " },
        { "4k3/8/8/8/PP6/1n6/2P5/4K3 w - - 0 1", "cxb3", "a4 b4 c2 ", "a4 b3 b4 " },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Position *pos = test_position_new(CASES[i].fen);
        if (!pos)
            continue;
        MoveCodeTracker t;
        movecode_tracker_init(&t, pos);
        tracker_pawns_are(&t, WHITE, CASES[i].before);
        Move m = move_from_san(pos, CASES[i].move);
        movecode_tracker_update(&t, pos, m);
        make_move(pos, m);
        tracker_pawns_are(&t, WHITE, CASES[i].after);
        CHECK(movecode_tracker_matches(&t, pos));
        free(pos);
    }
}

/* Plays a whole game through the tracker: after every move it must match from-scratch
 * numbering and give the same codes; the game functions must agree. */
static bool check_game(const Position *start, const Move *moves, int n)
{
    Position *pos = malloc(sizeof *pos);
    uint8_t *codes = malloc((size_t)n + 1);
    Move *back = malloc(((size_t)n + 1) * sizeof *back);
    bool ok = pos && codes && back;
    if (ok) {
        position_copy_current(pos, start);
        MoveCodeTracker t;
        movecode_tracker_init(&t, pos);
        for (int i = 0; ok && i < n; i++) {
            int code = movecode_encode(pos, moves[i]);
            ok = CHECK_MSG(movecode_encode_tracked(&t, pos, moves[i]) == code
                               && movecode_decode_tracked(&t, pos, code) == moves[i],
                           "tracked codes differ at ply %d", i);
            movecode_tracker_update(&t, pos, moves[i]);
            make_move(pos, moves[i]);
            position_trim_history(pos);
            ok = ok && CHECK_MSG(movecode_tracker_matches(&t, pos), "tracker wrong after ply %d", i);
        }
        ok = ok && CHECK_EQ(movecode_encode_game(start, moves, n, codes), n);
        ok = ok && CHECK_EQ(movecode_decode_game(start, codes, n, back), n);
        for (int i = 0; ok && i < n; i++)
            ok = CHECK_EQ(back[i], moves[i]);
    }
    free(pos);
    free(codes);
    free(back);
    return ok;
}

TEST(movecode_tracker_over_random_games)
{
    static char fens[256][128];
    int n = perft_suite_load(fens, 256, NULL);
    uint64_t seed = 12345;
    static Move moves[2000];
    Position *pos = malloc(sizeof *pos), *start = malloc(sizeof *start);
    int promotions = 0, games = 0;
    for (int round = 0; pos && start && round < 8; round++)
        for (int i = 0; i < n; i++) {
            char err[160];
            if (!position_from_fen(start, fens[i], err, sizeof err, NULL))
                continue;
            position_copy_current(pos, start);
            int len = 0;
            for (; len < 1500; len++) { /* long games: the tracker must not drift */
                MoveList list;
                generate_legal(pos, &list);
                if (!list.count || position_insufficient_material(pos))
                    break;
                moves[len] = list.moves[test_random(&seed) % (uint64_t)list.count];
                promotions += move_is_promotion(moves[len]);
                make_move(pos, moves[len]);
                position_trim_history(pos);
            }
            games++;
            if (!check_game(start, moves, len))
                goto done;
        }
done:
    test_log("%d random games, %d promotions", games, promotions);
    CHECK(promotions > 100);
    free(pos);
    free(start);
}

/* ---- PGN games: every legal move of every position, all variations ---- */

static void count_message(void *ctx, const char *message)
{
    (void)message;
    ++*(int *)ctx; /* the PGN tests check the messages themselves */
}

static void check_pgn_file(const char *name, Tally *t, long *games)
{
    char path[256];
    int messages = 0;
    PgnReader *r = pgn_open(test_data_path(name, path, sizeof path), count_message, &messages);
    if (!CHECK_MSG(r != NULL, "cannot open %s", path))
        return;
    static Move line[4096];
    int plies = 0;
    Position *start = malloc(sizeof *start);
    const PgnItem *it;
    while (start && (it = pgn_next(r))->event != PGN_EOF) {
        if (it->event == PGN_MOVETEXT) {
            position_copy_current(start, it->position);
            plies = 0;
        } else if (it->event == PGN_MOVE && it->move != MOVE_NULL) {
            if (!check_all_moves(it->position, t))
                break;
            if (it->depth == 0 && plies < 4096)
                line[plies++] = it->move;
        } else if (it->event == PGN_MOVE) {
            plies = 4096; /* a null move: the main line cannot be coded as a whole */
        } else if (it->event == PGN_GAME_END) {
            ++*games;
            if (plies < 4096 && !check_game(start, line, plies))
                break;
        }
    }
    free(start);
    pgn_close(r);
    CHECK_MSG(messages <= 1, "%s: %d games skipped", name, messages);
}

TEST(movecode_pgn_games_all_positions)
{
    static const char *FILES[] = { "pgn/edge_cases.pgn", "pgn/carballo_problems_easy.pgn", "pgn/Nakamura.pgn",
                                   "pgn/arasan_basic_first320.pgn", "pgn/kasparov-deep-blue-1997.pgn",
                                   "pgn/uci-moves.pgn", "pgn/anastasian-lewis.pgn" };
    Tally t = { 0, 0, 0 };
    long games = 0;
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        check_pgn_file(FILES[i], &t, &games);
    test_log("%ld games, %ld positions, %ld moves checked", games, t.positions, t.moves);
    CHECK(games > 1800);
}

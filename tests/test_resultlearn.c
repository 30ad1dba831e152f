/* Result learning (learning/resultlearn.h): the results of the engine's own moves counted
 * from game records, and what they advise when a position comes again. */
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "board/notation.h"
#include "learning/resultlearn.h"
#include "formats/movecode.h"
#include "test.h"

/* A game from fen with the given UCI moves, the engine playing own_side, ending in
 * result; its codes in codes (room for 16). */
static LearnGame game_of(const char *fen, const char *const *moves, int n, int own_side, int result,
                         uint8_t *codes)
{
    LearnGame g;
    memset(&g, 0, sizeof g);
    g.result = (uint8_t)result;
    g.own_side = (uint8_t)own_side;
    g.flags = fen ? 0 : LEARN_GAME_STARTPOS;
    snprintf(g.fen, sizeof g.fen, "%s", fen ? fen : "");
    Position *pos = malloc(sizeof *pos);
    char err[160];
    position_from_fen(pos, fen ? fen : START_FEN, err, sizeof err, NULL);
    for (int i = 0; i < n; i++) {
        Move m = move_from_uci(pos, moves[i]);
        codes[i] = (uint8_t)movecode_encode(pos, m);
        make_move(pos, m);
    }
    free(pos);
    g.ply_count = n;
    g.codes = codes;
    return g;
}

static void add(ResultLearn *rl, const char *fen, const char *move, int own_side, int result)
{
    uint8_t codes[16];
    const char *moves[1] = { move };
    LearnGame g = game_of(fen, moves, 1, own_side, result, codes);
    CHECK(resultlearn_add_game(rl, &g));
}

static Move uci(const Position *pos, const char *text)
{
    return move_from_uci(pos, text);
}

TEST(result_learning_replays_a_move_that_won_and_never_lost)
{
    ResultLearn rl = { 0 };
    add(&rl, NULL, "e2e4", LEARN_SIDE_WHITE, LEARN_RESULT_BLACK);
    add(&rl, NULL, "e2e4", LEARN_SIDE_WHITE, LEARN_RESULT_BLACK);
    add(&rl, NULL, "d2d4", LEARN_SIDE_WHITE, LEARN_RESULT_DRAW);
    add(&rl, NULL, "c2c4", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    add(&rl, NULL, "g1f3", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    add(&rl, NULL, "g1f3", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    add(&rl, NULL, "g1f3", LEARN_SIDE_WHITE, LEARN_RESULT_DRAW);
    /* Not the engine's moves, or no result: nothing counted. */
    add(&rl, NULL, "b2b3", LEARN_SIDE_NONE, LEARN_RESULT_WHITE);
    add(&rl, NULL, "b2b3", LEARN_SIDE_WHITE, LEARN_RESULT_UNKNOWN);
    resultlearn_finish(&rl);
    CHECK(rl.count == 4);
    Position *pos = malloc(sizeof *pos);
    char err[160];
    position_from_fen(pos, START_FEN, err, sizeof err, NULL);
    ResultAdvice adv;
    CHECK(resultlearn_advise(&rl, pos, &adv));
    CHECK_MSG(adv.replay == uci(pos, "g1f3") && adv.replay_stat.wins == 2 && adv.replay_stat.draws == 1,
              "the move that won most and never lost is played again");
    CHECK(adv.lost_count == 1 && adv.lost[0] == uci(pos, "e2e4") && adv.lost_stat[0].losses == 2);
    /* Black's moves are another position: nothing known. */
    make_move(pos, uci(pos, "e2e4"));
    CHECK(!resultlearn_advise(&rl, pos, &adv) && adv.replay == MOVE_NONE && adv.lost_count == 0);
    free(pos);
    resultlearn_free(&rl);
}

TEST(result_learning_counts_losses_less_but_never_every_move)
{
    /* White to move has three legal moves: Kxg2, Kf1, Kh1. */
    const char *fen = "6k1/8/8/8/8/8/6r1/6K1 w - - 0 1";
    ResultLearn rl = { 0 };
    Position *pos = malloc(sizeof *pos);
    char err[160];
    position_from_fen(pos, fen, err, sizeof err, NULL);
    MoveList list;
    generate_legal(pos, &list);
    CHECK_MSG(list.count >= 2, "%d legal moves", list.count);
    char names[MAX_MOVES][8];
    for (int i = 0; i < list.count; i++) {
        move_to_uci(list.moves[i], names[i]);
        add(&rl, fen, names[i], LEARN_SIDE_WHITE, LEARN_RESULT_BLACK);
    }
    /* A move that lost once and drew twice does not count less. */
    add(&rl, fen, names[0], LEARN_SIDE_WHITE, LEARN_RESULT_DRAW);
    add(&rl, fen, names[0], LEARN_SIDE_WHITE, LEARN_RESULT_DRAW);
    resultlearn_finish(&rl);
    ResultAdvice adv;
    CHECK(resultlearn_advise(&rl, pos, &adv));
    CHECK(adv.replay == MOVE_NONE);
    CHECK_MSG(adv.lost_count == list.count - 1 && adv.lost_count < count_legal_moves(pos),
              "%d of %d moves count less", adv.lost_count, list.count);
    for (int k = 0; k < adv.lost_count; k++)
        CHECK(adv.lost[k] != list.moves[0]);
    /* Every move lost: one stays to be searched. */
    resultlearn_clear(&rl);
    for (int i = 0; i < list.count; i++)
        add(&rl, fen, names[i], LEARN_SIDE_WHITE, LEARN_RESULT_BLACK);
    resultlearn_finish(&rl);
    CHECK(resultlearn_advise(&rl, pos, &adv) && adv.lost_count == list.count - 1);
    free(pos);
    resultlearn_free(&rl);
}

TEST(result_learning_ignores_games_that_do_not_replay)
{
    ResultLearn rl = { 0 };
    uint8_t codes[4] = { 255, 255, 255, 255 };
    LearnGame g;
    memset(&g, 0, sizeof g);
    g.result = LEARN_RESULT_WHITE;
    g.own_side = LEARN_SIDE_WHITE;
    g.flags = LEARN_GAME_STARTPOS;
    g.ply_count = 4;
    g.codes = codes;
    CHECK(!resultlearn_add_game(&rl, &g));
    snprintf(g.fen, sizeof g.fen, "not a position");
    g.flags = 0;
    CHECK(!resultlearn_add_game(&rl, &g));
    resultlearn_finish(&rl);
    CHECK(rl.count == 0);
    resultlearn_free(&rl);
}

TEST(result_learning_replays_only_with_evidence)
{
    ResultLearn rl = { 0 };
    ResultAdvice adv;
    Position *pos = malloc(sizeof *pos);
    char err[160];
    position_from_fen(pos, START_FEN, err, sizeof err, NULL);
    /* One won game says little: a move that scores 50% wins every other game. */
    add(&rl, NULL, "e2e4", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    resultlearn_finish(&rl);
    CHECK_MSG(!resultlearn_advise(&rl, pos, &adv) && adv.replay == MOVE_NONE, "one win replayed");
    /* Two wins to a loss: a net result of one. */
    add(&rl, NULL, "e2e4", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    add(&rl, NULL, "e2e4", LEARN_SIDE_WHITE, LEARN_RESULT_BLACK);
    resultlearn_finish(&rl);
    resultlearn_advise(&rl, pos, &adv);
    CHECK_MSG(adv.replay == MOVE_NONE, "2 wins 1 loss replayed");
    /* A third win: net 2, 75% of the points. */
    add(&rl, NULL, "e2e4", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    resultlearn_finish(&rl);
    CHECK_MSG(resultlearn_advise(&rl, pos, &adv) && adv.replay == uci(pos, "e2e4"), "3 wins 1 loss not replayed");
    /* Two wins among many draws: under two thirds of the points. */
    resultlearn_clear(&rl);
    add(&rl, NULL, "d2d4", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    add(&rl, NULL, "d2d4", LEARN_SIDE_WHITE, LEARN_RESULT_WHITE);
    for (int i = 0; i < 4; i++)
        add(&rl, NULL, "d2d4", LEARN_SIDE_WHITE, LEARN_RESULT_DRAW);
    resultlearn_finish(&rl);
    resultlearn_advise(&rl, pos, &adv);
    CHECK_MSG(adv.replay == MOVE_NONE, "2 wins 4 draws replayed");
    free(pos);
    resultlearn_free(&rl);
}

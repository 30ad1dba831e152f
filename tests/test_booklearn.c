/* Book learning: the engine's own book moves get the results of its games in the
 * learning file, and a book move that keeps losing is chosen less, one that keeps
 * winning more (book_choose over many draws with a fixed seed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/notation.h"
#include "learning/learner.h"
#include "formats/movecode.h"
#include "test.h"

/* Plays `games` games in which the engine (White) opens 1.e4 from the book and then
 * gets result; the learner writes them to path. */
static void play_book_games(const char *path, int games, int result)
{
    Learner *l = learner_new();
    learner_configure(l, true, path, LEARN_DEFAULT_THRESHOLD);
    Position *pos = malloc(sizeof *pos);
    char err[160], msg[700];
    for (int g = 0; g < games; g++) {
        learner_new_game(l);
        position_from_fen(pos, START_FEN, err, sizeof err, NULL);
        learner_set_game(l, NULL, NULL, 0, msg, sizeof msg);
        Move e4 = move_from_uci(pos, "e2e4");
        learner_book_played(l, pos, e4);
        make_move(pos, e4);
        Move line[3] = { e4, move_from_uci(pos, "e7e5"), MOVE_NONE };
        make_move(pos, line[1]);
        line[2] = move_from_uci(pos, "g1f3");
        learner_set_game(l, NULL, line, 3, msg, sizeof msg);
        learner_game_over(l, result, msg, sizeof msg);
        CHECK_MSG(!msg[0], "%s", msg);
    }
    free(pos);
    learner_free(l);
}

/* How often (of 10,000 draws, fixed seed) 1.e4 is chosen against 1.d4 of equal weight,
 * after the learned results of path are merged in. */
static int e4_share(const char *path, LearnBookStat *stat)
{
    Learner *l = learner_new();
    learner_configure(l, true, path, LEARN_DEFAULT_THRESHOLD);
    TranspositionTable tt;
    tt_init(&tt, 1);
    char err[160], msg[700];
    learner_load_into(l, &tt, msg, sizeof msg);
    Position *pos = malloc(sizeof *pos);
    position_from_fen(pos, START_FEN, err, sizeof err, NULL);
    Move e4 = move_from_uci(pos, "e2e4"), d4 = move_from_uci(pos, "d2d4");
    memset(stat, 0, sizeof *stat);
    learner_book_stat(l, pos_key(pos), movecode_encode(pos, e4), stat);
    uint64_t rng = 12345;
    int chosen = 0;
    for (int i = 0; i < 10000; i++) {
        BookMove moves[2] = { { d4, movecode_encode(pos, d4), 50, 10, 4, 3, 3 },
                              { e4, movecode_encode(pos, e4), 50, 10, 4, 3, 3 } };
        learner_book_adjust(l, pos, moves, 2);
        int pick = book_choose(moves, 2, 100, &rng);
        chosen += pick >= 0 && moves[pick].move == e4;
    }
    free(pos);
    tt_free(&tt);
    learner_free(l);
    return chosen;
}

TEST(book_learning_losses_lower_and_wins_raise_a_move)
{
    char none[] = "/tmp/saavedra-booklearn-none.lrn";
    char lost[] = "/tmp/saavedra-booklearn-lost-XXXXXX";
    char won[] = "/tmp/saavedra-booklearn-won-XXXXXX";
    int fd1 = mkstemp(lost), fd2 = mkstemp(won);
    if (!CHECK(fd1 >= 0 && fd2 >= 0))
        return;
    close(fd1);
    close(fd2);
    unlink(none);
    LearnBookStat s;
    int base = e4_share(none, &s);
    play_book_games(lost, 3, LEARN_RESULT_BLACK);
    int after_losses = e4_share(lost, &s);
    CHECK_EQ(s.losses, 3);
    CHECK_EQ(s.wins + s.draws, 0);
    play_book_games(won, 3, LEARN_RESULT_WHITE);
    play_book_games(won, 2, LEARN_RESULT_UNKNOWN); /* unknown results teach nothing */
    int after_wins = e4_share(won, &s);
    CHECK_EQ(s.wins, 3);
    CHECK_EQ(s.losses + s.draws, 0);
    /* Equal weights: about half; weight x 1/4 after three losses (about 20%), x 4 after
     * three wins (about 80%). */
    CHECK_MSG(base > 4700 && base < 5300, "1.e4 chosen %d times of 10000 without learning", base);
    CHECK_MSG(after_losses < 2600 && after_losses > 1500, "after 3 losses: %d of 10000", after_losses);
    CHECK_MSG(after_wins > 7400 && after_wins < 8500, "after 3 wins: %d of 10000", after_wins);
    unlink(lost);
    unlink(won);
}

TEST(book_learning_skips_moves_not_played)
{
    /* The GUI played something else than the book move: nothing is learned for it. */
    char path[] = "/tmp/saavedra-booklearn-skip-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    close(fd);
    Learner *l = learner_new();
    learner_configure(l, true, path, LEARN_DEFAULT_THRESHOLD);
    Position *pos = malloc(sizeof *pos);
    char err[160], msg[700];
    position_from_fen(pos, START_FEN, err, sizeof err, NULL);
    learner_set_game(l, NULL, NULL, 0, msg, sizeof msg);
    learner_book_played(l, pos, move_from_uci(pos, "e2e4"));
    Move d4 = move_from_uci(pos, "d2d4");
    learner_set_game(l, NULL, &d4, 1, msg, sizeof msg);
    learner_game_over(l, LEARN_RESULT_BLACK, msg, sizeof msg);
    TranspositionTable tt;
    tt_init(&tt, 1);
    learner_load_into(l, &tt, msg, sizeof msg);
    LearnBookStat s;
    CHECK(!learner_book_stat(l, pos_key(pos), movecode_encode(pos, move_from_uci(pos, "e2e4")), &s));
    CHECK(!learner_book_stat(l, pos_key(pos), movecode_encode(pos, d4), &s));
    tt_free(&tt);
    free(pos);
    learner_free(l);
    unlink(path);
}

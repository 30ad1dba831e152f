/* Result learning (docs/learning.md): what the engine's own finished games say of the
 * moves it played. The learning file keeps every game (G records, with the side the
 * engine played and the result); each of the engine's moves in a decided or drawn game
 * counts that result for (position, move). When a game reaches such a position again:
 *
 * - a move with enough evidence (resultlearn_replays: at least RESULT_REPLAY_MIN_NET more
 *   wins than losses, and RESULT_REPLAY_MIN_SCORE percent of the points) may be played
 *   again at once: an opponent that met it before may well repeat its own side of the
 *   game. One won game is not enough: a move that scores 50% wins every other game;
 * - moves that lost there, never won and lost more often than they drew count less in
 *   the search (learner.h), as long as another legal move remains: the same trap is not
 *   walked into twice when another move is as good.
 *
 * The learner (learner.h) holds one, fills it when it loads the file and decides whether
 * it is asked (option "Learning Results"). */
#ifndef SAAVEDRA_RESULTLEARN_H
#define SAAVEDRA_RESULTLEARN_H

#include <stdbool.h>

#include "board/position.h"
#include "learning/learnrec.h"

/* A won move is replayed when it has this many more wins than losses here ... */
#define RESULT_REPLAY_MIN_NET 2
/* ... and at least this share of the points (percent, a draw half a point). */
#define RESULT_REPLAY_MIN_SCORE 67

/* Entries kept at most (the most played first): 16 bytes each. */
#define RESULT_LEARN_MAX 400000

typedef struct {
    LearnBookStat *stats;  /* sorted by (key, code), one per move; owned */
    int count;
    size_t cap;
} ResultLearn;

void resultlearn_free(ResultLearn *rl);
/* Forgets every entry (keeps the memory). */
void resultlearn_clear(ResultLearn *rl);
/* Counts the result of every own move of g (a game the engine played one side of, with
 * a known result); false when g's moves do not replay or memory ran out. */
bool resultlearn_add_game(ResultLearn *rl, const LearnGame *g);
/* Sorts and merges what was added; call after the last resultlearn_add_game. */
void resultlearn_finish(ResultLearn *rl);

typedef struct {
    Move replay;              /* MOVE_NONE, or the won move to play again (the best
                                 net result of those resultlearn_replays accepts) */
    LearnBookStat replay_stat;
    int lost_count;           /* moves that lost here, to count less in the search */
    Move lost[MAX_MOVES];
    LearnBookStat lost_stat[MAX_MOVES];
} ResultAdvice;

/* Whether a move's results are evidence enough to play it again at once. */
bool resultlearn_replays(const LearnBookStat *s);

/* What the learned results say of pos's legal moves; false when nothing. */
bool resultlearn_advise(const ResultLearn *rl, const Position *pos, ResultAdvice *out);

#endif

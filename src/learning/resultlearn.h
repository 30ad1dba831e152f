/* Result learning (docs/learning.md): what the engine's own finished games say of the
 * moves it played. The learning file keeps every game (G records, with the side the
 * engine played and the result); each of the engine's moves in a decided or drawn game
 * counts that result for (position, move). When a game reaches such a position again:
 *
 * - a move that won there and never lost is played again at once: an opponent that met
 *   it before may well repeat its own side of the game;
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
    Move replay;              /* MOVE_NONE, or the won move to play again */
    LearnBookStat replay_stat;
    int lost_count;           /* moves that lost here, to count less in the search */
    Move lost[MAX_MOVES];
    LearnBookStat lost_stat[MAX_MOVES];
} ResultAdvice;

/* What the learned results say of pos's legal moves; false when nothing. */
bool resultlearn_advise(const ResultLearn *rl, const Position *pos, ResultAdvice *out);

#endif

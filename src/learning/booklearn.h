/* Book learning (docs/learning-format.md): the engine's own book moves of the game, the
 * B records that give them the game's result, and the learned results of each book move
 * (merged from the learning file) folded into a probe's moves before the book chooses.
 * The learner (learner.h) holds one and decides whether learning is on. */
#ifndef SAAVEDRA_BOOKLEARN_H
#define SAAVEDRA_BOOKLEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/position.h"
#include "opening/book.h"
#include "learning/learnrec.h"

/* Own book moves remembered per game for book learning. */
#define LEARN_BOOK_PLAYED_MAX 128

/* An own book move of the game: where, which, and at which ply of the record. */
typedef struct {
    Key key;
    uint8_t code;
    uint8_t side;
    int ply;
    Move move;
} BookPlayed;

typedef struct {
    BookPlayed played[LEARN_BOOK_PLAYED_MAX]; /* this game's own book moves */
    int played_count;
    LearnBookStat *stats;                     /* merged, sorted by (key, code); owned */
    int count;
} BookLearn;

void booklearn_free(BookLearn *bl);
/* Takes stats (malloc'd, learn_merge_books'd: count of them) in place of the old ones. */
void booklearn_set_stats(BookLearn *bl, LearnBookStat *stats, int count);
/* The engine played book move m in pos, at ply of its game record (the first
 * LEARN_BOOK_PLAYED_MAX of a game are kept). */
void booklearn_played(BookLearn *bl, const Position *pos, Move m, int ply);
/* Appends to out (room for cap bytes) the B records of the own book moves really played
 * (the record moves[0..count) has the move at that ply) for a decided result (a
 * LearnResult); returns their length, 0 for LEARN_RESULT_UNKNOWN. */
size_t booklearn_results(const BookLearn *bl, const Move *moves, int count, int result,
                         uint8_t *out, size_t cap);
/* The learned results of one book move (false when there are none). */
bool booklearn_stat(const BookLearn *bl, Key key, int code, LearnBookStat *out);
/* Folds the learned results into pos's book moves as learner_book_adjust says
 * (learner.h), then sorts them heaviest first (stable). */
void booklearn_adjust(const BookLearn *bl, const Position *pos, BookMove *moves, int n);

#endif

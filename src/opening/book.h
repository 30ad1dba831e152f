/* The opening book as the engine uses it: opening a file (Saavedra's own format,
 * docs/book-format.md, or a Polyglot .bin, told apart by their bytes), probing a
 * position for its book moves with their weights and statistics, and choosing one.
 *
 * A book is read once into memory and checked whole on opening, so a truncated, damaged
 * or foreign file is refused there with one message, and probes never read outside it.
 * Every move a probe returns is legal in the position probed. A Book is immutable after
 * opening: any number of threads may probe it at once.
 *
 * Book learning (learning/booklearn.h) adjusts the probed moves' statistics and
 * weights before book_choose: the probe returns counts and wins/draws/losses per move
 * for that, and the choice reads only the BookMove array it is given. */
#ifndef SAAVEDRA_BOOK_H
#define SAAVEDRA_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/position.h"

typedef enum { BOOK_KIND_SAAVEDRA, BOOK_KIND_POLYGLOT } BookKind;

/* One book move of a position. Own books: weight 0..100, statistics from the games the
 * book was built from (wins/draws/losses for the side playing the move). Polyglot books:
 * weight is the file's 16-bit weight and the statistics are 0. A weight of 0 means the
 * book knows the move but never plays it. */
typedef struct {
    Move move;
    int code;                       /* the one-byte move code (own books), else -1 */
    uint32_t weight;
    uint32_t count, wins, draws, losses;
} BookMove;

#define BOOK_MOVES_MAX 256

typedef struct Book Book;

/* Reads and checks the whole file. NULL, with a one-line reason in err, when it cannot be
 * read or is not a well-formed book of either kind. */
Book *book_open(const char *path, char *err, size_t err_size);
/* The same from bytes in memory (copied); name is used in messages. */
Book *book_open_bytes(const void *bytes, size_t size, const char *name, char *err, size_t err_size);
void book_close(Book *book);

BookKind book_kind(const Book *book);
/* Positions and position-move entries in the book (Polyglot: entries, keys unknown = 0). */
uint32_t book_position_count(const Book *book);
uint32_t book_entry_count(const Book *book);

/* The book moves of pos, legal ones only, best weight first (ties: the book's order).
 * Returns how many were written to out (at most max). */
int book_probe(const Book *book, const Position *pos, BookMove *out, int max);

/* Picks one of n moves: -1 when none has a weight above 0. variety 0 always gives the
 * (first) highest weight; variety v in 1..100 picks move i with probability proportional
 * to weight_i ^ (100 / v), so 100 is proportional to the weights and lower values favour
 * the heavier moves more. rng is the caller's random state (any value to start; it is
 * advanced), so that runs repeat under a fixed seed. */
int book_choose(const BookMove *moves, int n, int variety, uint64_t *rng);

/* Where the book named name is: an absolute path is used as it is; a relative one is
 * looked for beside the executable, then in ../share/saavedra from it (make install),
 * then in book/ beside it (a repository checkout), never in the working directory (a GUI
 * starts engines from anywhere). Writes the path found, or the one beside the executable
 * when none exists (and returns false). */
bool book_locate(const char *name, char *out, size_t out_size);

/* One line describing a book move of pos, e.g. "e4 weight 62, 1234 games +40% =35% -25%"
 * (percentages of the decided games). pos is left as it was. */
void book_move_describe(Position *pos, const BookMove *m, char *buf, size_t size);

#endif

/* The engine's own opening book: the file BookFile names, opened on first use, and the
 * choice of a book move for a go, merged with what the learning file says of the book's
 * moves. The Options passed in are the engine's (option_table.h: OwnBook, BookFile, Book
 * Variety, Book Depth). Knows nothing of protocols: a warning goes out through the
 * reporter's on_info. Format: docs/book-format.md. */
#ifndef SAAVEDRA_OWNBOOK_H
#define SAAVEDRA_OWNBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "learning/learner.h"
#include "opening/book.h"
#include "search/search.h"
#include "util/options.h"

#define OWNBOOK_DEFAULT_FILE "book.bin"

typedef struct {
    Book *book;                    /* NULL: none, or it could not be read */
    bool checked;                  /* book (or the failure to open it, reported once) */
    char name[OPTION_STRING_MAX];  /* ... belongs to this BookFile value */
    uint64_t rng;                  /* the random state of the book's choices */
    Move best, ponder;             /* the book move a go answers with (ownbook_choose) */
    char detail[200];              /* what the book says of it */
} OwnBook;

void ownbook_init(OwnBook *ob, uint64_t seed);
void ownbook_close(OwnBook *ob);

/* BookFile changed: the next use opens it again. With OwnBook on it is opened at once, so
 * that a GUI or engine.rc hears of a bad file now: the reason goes to warn ("" if none). */
void ownbook_changed(OwnBook *ob, const Options *o, char *warn, size_t warn_size);

/* The book moves of pos (best weight first; 0 when no book can be read, with the reason
 * in warn the first time, else warn ""), adjusted by what the learner knows of them. */
int ownbook_moves(OwnBook *ob, const Options *o, const Learner *learner, const Position *pos,
                  BookMove *out, int max, char *warn, size_t warn_size);

/* Whether a go may be answered without a search, by the book or a learned replay: a
 * move of a game on a clock. The limits give the side to move's time (and perhaps
 * increments and moves to go) and nothing that asks for a search: no depth, nodes,
 * mate, movetime, infinite, ponder or searchmoves; UCI_AnalyseMode is off. */
bool ownbook_may_answer(const Options *o, const Position *pos, const SearchLimits *limits);

/* Whether the book answers this go; if so, best, ponder (the reply the book likes best)
 * and detail are set and the learner is told. Only with OwnBook on, when
 * ownbook_may_answer allows it and within Book Depth plies. A book that cannot be read
 * is reported through rep->on_info. */
bool ownbook_choose(OwnBook *ob, const Options *o, Learner *learner, const Position *pos,
                    const SearchLimits *limits, const SearchReporter *rep);

#endif

/* The engine's own book: see ownbook.h. */
#include "engine/ownbook.h"

#include <stdio.h>
#include <string.h>

#include "board/position.h"
#include "engine/option_table.h"

void ownbook_init(OwnBook *ob, uint64_t seed)
{
    memset(ob, 0, sizeof *ob);
    ob->rng = seed;
}

void ownbook_close(OwnBook *ob)
{
    book_close(ob->book);
    ob->book = NULL;
    ob->checked = false;
}

/* The book BookFile names, opened on first use; NULL when there is none or it cannot be
 * read, with the reason in warn the first time only ("" otherwise). */
static Book *current_book(OwnBook *ob, const Options *o, char *warn, size_t size)
{
    const char *name = option_str(o, OPT_BOOK_FILE);
    warn[0] = '\0';
    if (ob->checked && !strcmp(ob->name, name))
        return ob->book;
    book_close(ob->book);
    ob->book = NULL;
    ob->checked = true;
    snprintf(ob->name, sizeof ob->name, "%s", name);
    if (!name[0] || !strcmp(name, "<empty>"))
        return NULL;
    char path[4096], err[400];
    if (!book_locate(name, path, sizeof path)) {
        snprintf(warn, size, "book %s not found (%s): playing without a book", name, path);
        return NULL;
    }
    if (!(ob->book = book_open(path, err, sizeof err)))
        snprintf(warn, size, "book not used: %s", err);
    return ob->book;
}

void ownbook_changed(OwnBook *ob, const Options *o, char *warn, size_t warn_size)
{
    ob->checked = false;
    if (option_bool(o, OPT_OWN_BOOK))
        current_book(ob, o, warn, warn_size);
}

int ownbook_moves(OwnBook *ob, const Options *o, const Learner *learner, const Position *pos,
                  BookMove *out, int max, char *warn, size_t warn_size)
{
    Book *book = current_book(ob, o, warn, warn_size);
    int n = book ? book_probe(book, pos, out, max) : 0;
    learner_book_adjust(learner, pos, out, n); /* what the engine's games taught */
    return n;
}

bool ownbook_may_answer(const Options *o, const Position *pos, const SearchLimits *limits)
{
    return !option_bool(o, OPT_UCI_ANALYSE_MODE) && limits->time[pos->side] >= 0 && !limits->depth
        && !limits->nodes && !limits->mate && !limits->movetime && !limits->infinite
        && !limits->ponder && !limits->searchmoves_count;
}

bool ownbook_choose(OwnBook *ob, const Options *o, Learner *learner, const Position *pos,
                    const SearchLimits *limits, const SearchReporter *rep)
{
    if (!option_bool(o, OPT_OWN_BOOK) || !ownbook_may_answer(o, pos, limits)
        || pos->game_ply >= option_int(o, OPT_BOOK_DEPTH))
        return false;
    char warn[500];
    BookMove moves[BOOK_MOVES_MAX];
    Book *book = current_book(ob, o, warn, sizeof warn);
    if (warn[0] && rep && rep->on_info) {
        char line[520];
        snprintf(line, sizeof line, "warning: %s", warn);
        rep->on_info(rep->ctx, line);
    }
    int n = book ? book_probe(book, pos, moves, BOOK_MOVES_MAX) : 0;
    learner_book_adjust(learner, pos, moves, n); /* what the engine's games taught */
    int pick = book_choose(moves, n, (int)option_int(o, OPT_BOOK_VARIETY), &ob->rng);
    if (pick < 0)
        return false;
    learner_book_played(learner, pos, moves[pick].move);
    /* The reply the book likes best is the move to ponder on. */
    static _Thread_local Position scratch_pos; /* large: keep it off the stack */
    Position *scratch = &scratch_pos;
    *scratch = *pos;
    book_move_describe(scratch, &moves[pick], ob->detail, sizeof ob->detail);
    make_move(scratch, moves[pick].move);
    BookMove replies[BOOK_MOVES_MAX];
    int best_reply =
        book_choose(replies, book_probe(book, scratch, replies, BOOK_MOVES_MAX), 0, &ob->rng);
    ob->best = moves[pick].move;
    ob->ponder = best_reply >= 0 ? replies[best_reply].move : MOVE_NONE;
    return true;
}

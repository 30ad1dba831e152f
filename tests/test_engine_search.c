/* engine_search (engine/engine.h): the search-only entry point of the programs that play
 * games by search alone. Where engine_go plays a book move, engine_search searches. */
#include <limits.h>
#include <stdlib.h>

#include "board/movegen.h"
#include "engine/engine.h"
#include "test.h"

/* Searches (search_only) or goes (engine_go) from the start position on a clock (the one
 * limit under which engine_go may answer from the book) with the Polyglot test book
 * switched on; returns the result. */
static SearchResult start_position_move(bool search_only)
{
    SearchResult none = { 0 };
    Engine *e = NULL;
    char err[256], path[1024], book[PATH_MAX];
    if (!CHECK(e = engine_new()))
        return none;
    CHECK(engine_set_option_id(e, OPT_LEARNING, "false", OPT_SOURCE_GUI, err, sizeof err));
    CHECK(engine_set_option_id(e, OPT_OWN_BOOK, "true", OPT_SOURCE_GUI, err, sizeof err));
    /* An absolute name: relative ones are taken beside the executable. */
    if (!CHECK(realpath(test_data_path("book/nakamura-polyglot-p12.bin", path, sizeof path), book))) {
        engine_free(e);
        return none;
    }
    CHECK(engine_set_option_id(e, OPT_BOOK_FILE, book, OPT_SOURCE_GUI, err, sizeof err));
    engine_new_game(e);
    SearchLimits limits;
    limits_init(&limits);
    limits.time[WHITE] = limits.time[BLACK] = 2000;
    bool started = search_only ? engine_search(e, &limits, NULL, err, sizeof err)
                               : engine_go(e, &limits, NULL, err, sizeof err);
    CHECK(started);
    engine_wait(e);
    SearchResult r = engine_last_result(e);
    MoveList list;
    generate_legal(engine_position(e), &list);
    bool legal = false;
    for (int i = 0; i < list.count; i++)
        legal |= list.moves[i] == r.best;
    CHECK(legal);
    engine_free(e);
    return r;
}

TEST(engine_go_plays_the_book_move_engine_search_searches)
{
    SearchResult book = start_position_move(false);
    CHECK(book.best != MOVE_NONE && book.nodes == 0 && book.depth == 0);
    SearchResult searched = start_position_move(true);
    CHECK(searched.best != MOVE_NONE && searched.nodes > 0 && searched.depth >= 1);
}

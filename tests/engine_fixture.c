/* Engines for the tests that search through the engine's interface (engine_fixture.h). */
#include "engine_fixture.h"

#include <stdio.h>

#include "eval/evaluate.h"
#include "search/search.h"
#include "test.h"

Engine *fixture_engine(int threads, const char *mode)
{
    eval_init();
    search_init();
    Engine *e = engine_new();
    if (!CHECK(e != NULL))
        return NULL;
    char err[256], value[16];
    snprintf(value, sizeof value, "%d", threads);
    CHECK_MSG(engine_set_option_id(e, OPT_THREADS, value, OPT_SOURCE_GUI, err, sizeof err), "%s",
              err);
    CHECK_MSG(engine_set_option_id(e, OPT_SMP_MODE, mode, OPT_SOURCE_GUI, err, sizeof err), "%s",
              err);
    return e;
}

bool fixture_search(Engine *e, const char *fen, int depth)
{
    char err[256];
    engine_new_game(e);
    if (!CHECK_MSG(engine_set_position(e, fen, NULL, 0, err, sizeof err), "%s", err))
        return false;
    SearchLimits limits;
    limits_init(&limits);
    limits.depth = depth;
    if (!CHECK_MSG(engine_go(e, &limits, NULL, err, sizeof err), "%s", err))
        return false;
    engine_wait(e);
    return true;
}

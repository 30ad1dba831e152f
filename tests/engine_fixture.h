/* Engines for the tests that search through the engine's own interface: the unit tests of
 * the parallel search and the check build's invariant tests share them. */
#ifndef SAAVEDRA_TESTS_ENGINE_FIXTURE_H
#define SAAVEDRA_TESTS_ENGINE_FIXTURE_H

#include <stdbool.h>

#include "engine/engine.h"

/* A new engine with `threads` threads in SMP mode `mode` ("YBWC" or "Lazy"), the
 * evaluation and search tables built; NULL (after a failed check) if it cannot be made. */
Engine *fixture_engine(int threads, const char *mode);

/* A new game from `fen` searched to `depth`; false (after a failed check) if the position
 * or the search was refused. The result is engine_last_result(e). */
bool fixture_search(Engine *e, const char *fen, int depth);

#endif

/* Search scores and their bounds: what the search, the transposition table and the
 * tablebase probes exchange. */
#ifndef SAAVEDRA_SCORE_H
#define SAAVEDRA_SCORE_H

#include "board/types.h"

enum {
    VALUE_DRAW = 0,
    VALUE_MATE = 32000,
    VALUE_INFINITE = 32001,
    VALUE_NONE = 32002,
    /* Scores beyond this are mates (or mated) within MAX_PLY plies. */
    VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY,
    /* Tablebase wins (tablebase/syzygy.c): VALUE_TB_WIN - ply, below the mates, above any eval. */
    VALUE_TB_WIN = VALUE_MATE_IN_MAX_PLY - 1,
    VALUE_TB_WIN_IN_MAX_PLY = VALUE_TB_WIN - MAX_PLY,
};

/* What a score says of the true value: at most it (upper), at least it (lower), or it. */
typedef enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

#endif

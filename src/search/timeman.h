/* Search limits (as any protocol states them) and the time budget derived from them:
 * a soft limit checked between iterations, scaled by how settled the search looks, and a
 * hard limit checked inside the search. Knows nothing of UCI or xboard. */
#ifndef SAAVEDRA_TIMEMAN_H
#define SAAVEDRA_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "board/types.h"

typedef struct {
    int64_t time[COLOR_NB]; /* ms left on each clock, -1 when not given */
    int64_t inc[COLOR_NB];  /* ms increment per move */
    int movestogo;          /* moves to the next time control, 0 = sudden death */
    int64_t movetime;       /* exact ms per move, 0 = none */
    int depth;              /* 0 = none */
    uint64_t nodes;         /* 0 = none */
    int mate;               /* mate in N moves, 0 = none */
    bool infinite;          /* search until stopped */
    bool ponder;            /* thinking on the opponent's time until ponderhit/stop */
    int searchmoves_count;  /* restrict the root to these moves when non-zero */
    Move searchmoves[MAX_MOVES];
    int penalized_count;    /* root moves worth penalty_cp less than their score */
    int penalty_cp;
    Move penalized[MAX_MOVES];
} SearchLimits;

typedef struct {
    int64_t start_ms;
    int64_t soft_ms;  /* < 0: no time limit */
    int64_t hard_ms;
} TimeManager;

/* Longest time any limit may give (over 30 years): larger values are cut to it, so the
 * budget arithmetic cannot overflow. */
#define LIMITS_MAX_MS 1000000000000LL

/* All limits unset (an unset search runs until stopped). */
void limits_init(SearchLimits *limits);
/* ms cut to 0..LIMITS_MAX_MS. */
int64_t limits_clamp_ms(int64_t ms);
/* Whether any time-based limit is set. */
bool limits_use_time(const SearchLimits *limits);

/* The budget for a move of the side `us` at move number `fullmove` (which shapes the
 * sudden-death horizon). */
void timeman_init(TimeManager *tm, const SearchLimits *limits, Color us, int fullmove,
                  int move_overhead_ms, int64_t now_ms);
/* The clock starts again (ponderhit: our own time only starts running now). */
void timeman_restart(TimeManager *tm, int64_t now_ms);
bool timeman_hard_expired(const TimeManager *tm, int64_t now_ms);

/* How much of the soft limit to use after an iteration:
 * best_move_changes: decayed count of best-move changes (instability),
 * score_drop: previous iteration's score minus this one (fail-low when positive),
 * best_move_share: fraction of the iteration's nodes spent under the best move,
 * stable_iterations: iterations in a row with the same best move. */
double timeman_scale(double best_move_changes, int score_drop, double best_move_share,
                     int stable_iterations);
/* Whether to stop after an iteration (no new one could finish in time). */
bool timeman_stop_iterating(const TimeManager *tm, int64_t now_ms, double scale);

#endif

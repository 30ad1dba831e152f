/* xboard time controls (`level MPS BASE INC`, `st`, `sd`, `nps`, `time`, `otim`): the
 * commands parsed into an XbClock, and the clock turned into protocol-neutral
 * SearchLimits.
 *
 * level with MPS > 0 is a repeating control: every MPS moves the base time is added
 * again. The moves still to play before the next control are counted from the engine's
 * own moves since the `level` command (a level received mid-game counts from there, as
 * the protocol asks). */
#ifndef SAAVEDRA_XBTIME_H
#define SAAVEDRA_XBTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/timeman.h"

typedef struct {
    int mps;               /* moves per session, 0 = whole game */
    int64_t base_ms;       /* session time */
    int64_t inc_ms;        /* increment per move */
    int64_t st_ms;         /* exact time per move (st), 0 = none */
    int sd;                /* depth limit, 0 = none */
    int64_t nps;           /* node rate for node-based timing, 0 = wall clock */
    int64_t my_ms;         /* engine's clock (from `time`), -1 = unknown */
    int64_t opp_ms;        /* opponent's clock (from `otim`), -1 = unknown */
} XbClock;

/* No control known yet: 40 moves in 5 minutes, clocks unknown, no st/sd/nps. */
void xbclock_init(XbClock *c);
/* `new`: the depth limit and node rate go; the time control stays. */
void xbclock_new_game(XbClock *c);

/* Parses the arguments of `level` ("40 5 0", "0 0:30 2", "0 2 0.5"). On failure returns
 * false with a reason and leaves c unchanged. Also sets both clocks to the base. */
bool xbclock_level(XbClock *c, const char *mps, const char *base, const char *inc,
                   char *err, size_t err_size);

/* The time commands: level, st, sd, nps, time and otim, given their first three words
 * (empty when missing). For bad arguments returns false with a reason in err and leaves
 * c unchanged. */
bool xbclock_command(XbClock *c, const char *cmd, const char *a1, const char *a2,
                     const char *a3, char *err, size_t err_size);
/* Whether cmd is one of those. */
bool xbclock_is_command(const char *cmd);

/* After our move: our clock as xboard will see it (used_ms spent, the increment added),
 * for the ponder search that follows; `time` and `otim` correct it before the next move. */
void xbclock_after_move(XbClock *c, int64_t used_ms);

/* Moves still to play in the current session, given how many moves the engine has
 * made since the level command; 0 for an incremental (whole-game) control. */
int xbclock_moves_to_go(const XbClock *c, int own_moves_since_level);

/* Fills limits for the engine's search as side `us`. */
void xbclock_limits(const XbClock *c, int us, int own_moves_since_level, SearchLimits *limits);

#endif

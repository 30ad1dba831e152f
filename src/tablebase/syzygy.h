/* Syzygy endgame tablebases, probed through Fathom (Debian libfathom-dev, tbprobe.h).
 *
 * Thin glue: converts a Position into Fathom's bitboards (both use a1 = 0 .. h8 = 63),
 * turns Fathom's results into search scores and bounds, and ranks the root moves.
 * Fathom keeps its tables in process-wide state, so there is one set of tables per
 * process: syzygy_load replaces it and must not run while any search probes.
 *
 * Scores: a tablebase win found at distance ply from the root is VALUE_TB_WIN - ply,
 * below every mate score and above every evaluation; a loss is the negation. With the
 * fifty-move rule on (Syzygy50MoveRule), a win the rule turns into a draw ("cursed")
 * scores draw + 1 and the matching loss ("blessed") draw - 1. */
#ifndef SAAVEDRA_SYZYGY_H
#define SAAVEDRA_SYZYGY_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"
#include "board/score.h"

/* Fathom is built for up to 7-piece tables. */
#define SYZYGY_MAX_PIECES 7

/* Tablebase results for the side to move (Fathom's WDL values minus 2). */
enum {
    SYZYGY_LOSS = -2, SYZYGY_BLESSED_LOSS = -1, SYZYGY_DRAW = 0, SYZYGY_CURSED_WIN = 1,
    SYZYGY_WIN = 2
};

/* What a search needs to know; filled by the engine before each search. */
typedef struct {
    int pieces;        /* probe positions with at most this many pieces; 0 = no tables */
    int probe_depth;   /* in-search probes only at this remaining depth or more */
    bool rule50;       /* cursed wins and blessed losses count as draws */
} SyzygyConfig;

/* The root position's tablebase ranking (see syzygy_rank_root). */
typedef struct {
    bool active;       /* the root was found in the tables: only best-ranked moves are searched */
    int count;
    Move moves[MAX_MOVES];
    int rank[MAX_MOVES];  /* higher is better: keeps more of the result (Fathom's tbRank) */
    int value[MAX_MOVES]; /* each move's true value, as the search reports it */
} SyzygyRoot;

/* (Re)loads the tables found in path (directories separated by ':', normalised as by
 * syzygy_normalise_path; "", "<empty>" or only separators unloads). Returns the piece
 * count of the largest table found (0: none). A directory that is missing or unreadable,
 * or a path with no tables at all, leaves one line in warning (otherwise warning is "");
 * the engine simply goes on without those tables. */
int syzygy_load(const char *path, char *warning, size_t warning_size);
/* The same with a chosen set of file checks (tbcheck.h's TBCHECK_ flags; syzygy_load
 * uses TBCHECK_DEFAULT): for measuring what each check is worth (tools/stress/tbstress.c). */
int syzygy_load_checked(const char *path, unsigned check, char *warning, size_t warning_size);
/* path without empty components and with the blanks around each one trimmed (" a : :b:"
 * gives "a:b"); false (out then partial) when the result does not fit in size. */
bool syzygy_normalise_path(const char *path, char *out, size_t size);
/* Once after a probe faulted inside Fathom (the tables are then off for the rest of the
 * process): true with the one-line warning for the user in msg. */
bool syzygy_take_fault(char *msg, size_t size);
/* Piece count of the largest table loaded, 0 when none (and after a fault). */
int syzygy_largest(void);

/* Raw WDL probe (SYZYGY_LOSS .. SYZYGY_WIN) of pos, which must have no castling rights
 * and a zero fifty-move counter. False when the position is not in the tables. */
bool syzygy_probe_wdl(const Position *pos, int *wdl);

/* Probe at an interior search node under cfg's conditions (piece count, depth,
 * fifty-move counter zero, no castling). On a hit returns true with the score (for the
 * side to move, at distance ply from the root; draw is the search's draw score) and its
 * bound: exact for draws, lower for wins, upper for losses. */
bool syzygy_probe_search(const SyzygyConfig *cfg, const Position *pos, int depth, int ply,
                         int draw, int *score, Bound *bound);

/* Ranks every legal root move with the DTZ tables (the WDL tables when DTZ is missing).
 * The ranking keeps wins within reach of the fifty-move rule (and, after a repetition,
 * prefers the shortest conversion), so searching only the best-ranked moves converts a
 * win. Not thread-safe (Fathom's root probe): call once per search, before it starts.
 * out->active is false when the root is not in the tables. */
bool syzygy_rank_root(const SyzygyConfig *cfg, const Position *pos, int draw, SyzygyRoot *out);

/* Keeps in list only the moves ranked best by root. When only_count > 0, the best rank
 * is taken among the moves of only[] (UCI searchmoves) that are in the list. */
void syzygy_filter_root(const SyzygyRoot *root, MoveList *list, const Move *only, int only_count);

/* The score to report for the root line starting with move: that move's tablebase value
 * (with searchmoves it need not be the root's best), unless the search found a mate,
 * which is shown as such, or the move is not ranked. */
int syzygy_root_score(const SyzygyRoot *root, Move move, int search_score);

#endif

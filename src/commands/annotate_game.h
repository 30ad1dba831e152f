/* One game through the engine for annotate: every position of the main line searched
 * once (the score before a move is the mover's best, the score after it is minus the
 * opponent's best in the next position), the marks and better lines from those scores.
 * Knows no file format: the caller gives the start position and the moves. */
#ifndef SAAVEDRA_ANNOTATE_GAME_H
#define SAAVEDRA_ANNOTATE_GAME_H

#include <stdbool.h>

#include "commands/annotate_stats.h"
#include "engine/engine.h"

#define ANNOTATE_PV_MAX 10
#define ANNOTATE_MAX_PLIES 1024   /* longer games are analysed up to here */

typedef struct {
    Move move;             /* as played */
    bool analysed;         /* within --side and --from */
    int before, after;     /* mover's view (internal scores), when analysed */
    int material_before, material_after;
    Mark mark;
    int pv_length;         /* the better line (a marked move whose best move differs) */
    Move pv[ANNOTATE_PV_MAX];
} AnnotatedMove;

typedef struct {
    int depth;             /* one of depth, nodes, movetime_ms (the first set wins) */
    uint64_t nodes;
    int64_t movetime_ms;
    bool white, black;     /* sides analysed */
    int from_move;         /* first full move analysed (1 = all) */
} AnnotateLimits;

/* Polled about every 20 ms during a search: true ends the game's analysis early. */
typedef struct {
    bool (*stop_requested)(void *ctx);
    void *ctx;
    /* Progress after each position searched (may be NULL). */
    void (*progress)(void *ctx, int ply, int plies);
} AnnotateHooks;

typedef struct {
    Position start;        /* with its game history empty */
    int plies;
    AnnotatedMove moves[ANNOTATE_MAX_PLIES];
    /* White's view of every position searched (score_known[i] for position i, 0 = start). */
    bool score_known[ANNOTATE_MAX_PLIES + 1];
    int white_score[ANNOTATE_MAX_PLIES + 1];
    SideSummary side[2];   /* [WHITE], [BLACK] */
    bool interrupted;
} AnnotatedGame;

/* Searches the game (g->start, g->plies, g->moves[].move set by the caller) under the
 * limits and fills in the rest. false with a reason in err when the engine refused a
 * position or a search. */
bool annotate_game(Engine *e, AnnotatedGame *g, const AnnotateLimits *limits,
                   const AnnotateHooks *hooks, char *err, size_t err_size);

#endif

/* The xboard front end's searches: thinking on our move and playing it (with the server
 * manners around it), pondering on the predicted reply, analysis; the thinking output in
 * xboard's units, `.` status lines and `hint`. The search runs on the engine's thread:
 * it reports to the output and posts its end to the input queue, where the main loop
 * finds it in order with the GUI's lines. */
#ifndef SAAVEDRA_XBSEARCH_H
#define SAAVEDRA_XBSEARCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board/position.h"
#include "engine/engine.h"
#include "protocol/xbgame.h"
#include "protocol/xbio.h"
#include "protocol/xbserver.h"
#include "protocol/xbtime.h"

typedef enum { XS_IDLE, XS_THINK, XS_PONDER, XS_ANALYZE } XbSearchKind;

typedef struct {
    XbSearchKind kind;           /* the running search (main thread) */
    Move ponder_move;            /* predicted opponent move while pondering */
    int64_t think_start_ms;
    Position *ponder_base;       /* the game position before the predicted move */
    Position *search_root;       /* root for SAN in thinking output (search thread) */
    Position *scratch;           /* search-thread scratch for SAN conversion */
    Position *main_scratch;      /* the same for the main thread (never shared) */
    Move output_prefix;          /* ponder: the predicted move, shown before the PV; set
                                  * before the search starts, then only read (search thread) */
    atomic_bool post;            /* thinking output on (`post`/`nopost`) */

    /* Status for `.` in analyze mode, written by the search thread. */
    pthread_mutex_t stat_lock;
    int stat_depth, stat_move_number;
    uint64_t stat_nodes;
    Move stat_move;

    /* Where the search thread reports: set once by xbsearch_init. */
    XbOut *out;
    XbInput *events;
} XbSearch;

bool xbsearch_init(XbSearch *s, XbOut *out, XbInput *events);
void xbsearch_free(XbSearch *s);

/* bk: the book moves of the game position with weights, statistics and share of the
 * weight, each on a line starting with a blank, then an empty line. */
void xbsearch_send_book(XbSearch *s, Engine *e);

/* Thinks on our move in the game's position under the clock (unless the game is over or
 * every move is excluded). */
void xbsearch_think(XbSearch *s, Engine *e, XbGame *g, const XbClock *clock);
/* Analyses the game's position until stopped (when it has a legal move to search). */
void xbsearch_analyze(XbSearch *s, Engine *e, const XbGame *g);
/* Stops any search and throws its result away; a ponder search's predicted move is
 * taken back. */
void xbsearch_stop(XbSearch *s, Engine *e, const XbGame *g);
/* The opponent's move arrived while pondering: true if it was the predicted one (the
 * ponder search goes on as a normal search); otherwise the ponder search is dropped. */
bool xbsearch_ponder_hit(XbSearch *s, Engine *e, XbGame *g, Move played);
/* Collects the end of a search posted to the input queue. A thinking search's move is
 * played, after the server's say (resign, offer draw); then, if may_ponder, pondering
 * starts on the predicted reply. */
void xbsearch_finished(XbSearch *s, Engine *e, XbGame *g, XbClock *clock, XbServer *server,
                       bool may_ponder);
/* Answers `.` in analyze mode. */
void xbsearch_send_status(XbSearch *s, Engine *e);
/* Answers `hint`: the predicted move of a ponder search, else the game's hint. */
void xbsearch_send_hint(XbSearch *s, Engine *e, const XbGame *g);

#endif

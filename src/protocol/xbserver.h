/* Server manners for the xboard front end: what the GUI tells about the players (`name`,
 * `rating`, `computer`, `ics`) becomes the engine's contempt; the opponent's draw offers
 * are answered; and around each move we play comes our resignation or draw offer. The
 * decisions are engine/resign_draw.c's; this keeps the game's state for them and speaks. */
#ifndef SAAVEDRA_XBSERVER_H
#define SAAVEDRA_XBSERVER_H

#include <stdbool.h>

#include "board/position.h"
#include "engine/engine.h"
#include "engine/resign_draw.h"
#include "protocol/xbio.h"
#include "search/strength.h"

typedef struct {
    MannersState manners;
    OpponentInfo opponent;
    int own_rating;
    char opponent_name[64];
    bool on_server;              /* `ics` named a server */
    Position *after;             /* scratch: the position after the move we are to play */
} XbServer;

bool xbserver_init(XbServer *s);
void xbserver_free(XbServer *s);
/* A new game or position: our score history starts again. */
void xbserver_new_game(XbServer *s);

/* The player commands: `name TEXT`, `rating OWN OPP` (line for the error reply),
 * `computer`, `ics HOST`. */
void xbserver_name(XbServer *s, const char *name);
void xbserver_rating(XbServer *s, Engine *e, XbOut *out, const char *own, const char *opp,
                     const char *extra, const char *line);
void xbserver_computer(XbServer *s, Engine *e, XbOut *out);
void xbserver_ics(XbServer *s, const char *host);

/* The opponent offers a draw (in a game still on): accepted with an offer of ours. */
void xbserver_draw_offered(const XbServer *s, Engine *e, XbOut *out);
/* Before we play best, the search's move: records its score, then resigns (returns
 * false: best is not to be played) or goes on, with a draw offer when the position is
 * dead level or a draw could be claimed after best. */
bool xbserver_before_move(XbServer *s, Engine *e, XbOut *out, Move best);

#endif

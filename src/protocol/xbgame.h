/* The game as the xboard front end keeps it: the start position and every move since
 * (undo and remove replay it when the engine's own history was compacted; a repeating
 * time control counts our moves since `level`), whether the position is valid and the
 * game over, and what holds for the current position only: the moves `exclude`d from
 * the search and our hint. Also reads the moves the GUI sends. */
#ifndef SAAVEDRA_XBGAME_H
#define SAAVEDRA_XBGAME_H

#include <stdbool.h>

#include "board/position.h"
#include "engine/engine.h"
#include "protocol/xbio.h"
#include "search/timeman.h"

typedef struct {
    char start_fen[128];
    Color start_side;
    Move *moves;
    int move_count, move_cap;
    int level_ply;               /* game ply when `level` was received */
    bool position_valid;         /* false after an edit produced an illegal position */
    bool game_over;              /* result claimed, received or resigned */

    /* The current position's: cleared when it is set or a move is taken back. */
    Move hint_move;              /* our prediction of the opponent's move, or none */
    int excluded_count;          /* (also cleared by any move) */
    Move excluded[MAX_MOVES];
} XbGame;

void xbgame_free(XbGame *g);
/* A new position (not a move): fen, with side to move. */
void xbgame_reset(XbGame *g, const char *fen, Color side);
/* A move already made on the engine. */
void xbgame_push(XbGame *g, Move m);
/* Sets the side to move keeping the pieces (the obsolete `white` and `black`): a new
 * position, without en passant, counters from the start. */
void xbgame_set_side(XbGame *g, Engine *e, Color side);
/* Takes back n plies (engine and record); false if the game has fewer. */
bool xbgame_undo(XbGame *g, Engine *e, XbOut *out, int n);
/* Sets the engine to the recorded game, replayed from the start position, for when the
 * engine cannot take a move back itself; false (told to the user) if it fails. */
bool xbgame_restore(const XbGame *g, Engine *e, XbOut *out);
int xbgame_own_moves_since_level(const XbGame *g, Color us);
/* Claims the result if the game on pos is over (once); true if it is over. */
bool xbgame_claim_if_over(XbGame *g, const Position *pos, XbOut *out);

/* `exclude`/`include` of one legal move, or of all the legal moves on pos. */
void xbgame_exclude(XbGame *g, Move m, bool exclude);
void xbgame_exclude_all(XbGame *g, const Position *pos, bool exclude);
/* Adds the legal moves of pos not excluded to limits' searchmoves (none when nothing is
 * excluded); false when every move is excluded: nothing to search. */
bool xbgame_search_moves(const XbGame *g, const Position *pos, SearchLimits *limits);

/* Whether text has the shape of a move (coordinate or SAN), legal or not: a word the
 * GUI sent is a move the opponent played, or an unknown command. */
bool xbgame_looks_like_move(const char *text);
/* The legal move on pos that text names, in coordinates or SAN; MOVE_NONE if none. */
Move xbgame_parse_move(const Position *pos, const char *text);

#endif

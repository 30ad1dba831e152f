/* The game the engine plays: the position with its move history (bounded, for
 * repetitions in endless games), moves in UCI notation played or taken back, and the
 * opening reached (docs/eco.md). The game record for learning is the engine's. */
#ifndef SAAVEDRA_GAME_H
#define SAAVEDRA_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"
#include "opening/eco.h"

typedef struct {
    Position pos;
    const EcoTable *eco_table; /* NULL: openings are not named */
    EcoGame eco;               /* the game's opening so far */
    EcoGame eco_next;          /* game_set builds here, kept only on success */
} Game;

/* The start position, with openings named from eco_table (may be NULL). */
void game_init(Game *g, const EcoTable *eco_table);
/* A new game: the start position, Chess960 castling notation or not. */
void game_new(Game *g, bool chess960);
/* fen NULL means the start position; moves in UCI notation. On failure nothing changes
 * and err says which part was wrong. played (if not NULL) gets the count moves. */
bool game_set(Game *g, const char *fen, const char *const *moves, int count, bool chess960,
              Move *played, char *err, size_t err_size);
/* Puts back a position copied earlier from g->pos (with its history); the opening is
 * then that of the position. */
void game_restore(Game *g, const Position *saved);
/* Plays one legal move (false if illegal). */
bool game_make_move(Game *g, Move m);
/* Takes back the last move, if the history still has it. */
bool game_undo_move(Game *g);
/* The classification of the deepest known position reached, NULL if none; *here (if not
 * NULL) gets the current position's own entry, NULL when it is not in the table. */
const EcoEntry *game_opening(const Game *g, const EcoEntry **here);

#endif

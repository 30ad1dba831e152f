/* Legal move generation by stage. Pins and checks come from the position's state
 * (computed once per node in make_move), so every generated move is legal. */
#ifndef SAAVEDRA_MOVEGEN_H
#define SAAVEDRA_MOVEGEN_H

#include "board/position.h"

typedef enum {
    GEN_CAPTURES, /* captures (incl. en passant) and queen promotions, capturing or not */
    GEN_QUIETS,   /* non-captures and underpromotions (capturing or not), castling */
    GEN_ALL       /* everything; when in check these are exactly the evasions */
} GenType;

/* Appends the legal moves of the given kind to list; returns the new end. When the side
 * to move is in check, every stage yields only evasions of that kind. */
Move *generate_moves(const Position *pos, Move *list, GenType type);
/* All legal moves (check evasions when in check). */
void generate_legal(const Position *pos, MoveList *list);
/* Number of legal moves, without writing them out. */
int count_legal_moves(const Position *pos);
/* Whether m (any 16-bit value, e.g. from the hash table) is a legal move here. */
bool move_is_legal(const Position *pos, Move m);
/* Whether the move gives check (direct, discovered, castling or en passant). */
bool move_gives_check(const Position *pos, Move m);

#endif

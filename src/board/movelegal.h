/* Legality of one candidate move without generating the move list: the cheap test used
 * by the move decoder (and usable for hash or book moves). Relies on the checkers and
 * pinned sets that make_move keeps in the position's state. */
#ifndef SAAVEDRA_MOVELEGAL_H
#define SAAVEDRA_MOVELEGAL_H

#include "board/position.h"

/* Whether m (any 16-bit value) is exactly one of the moves the legal generator would
 * produce here: same from, to and flags. Same answer as move_is_legal(), much faster. */
bool move_is_legal_fast(const Position *pos, Move m);

/* Whether m could be played ignoring checks and pins: own piece on from, the piece can
 * reach to, flags consistent with the board (capture, en passant, double push,
 * promotion, castling rights and empty squares between king and rook). */
bool move_is_pseudo_legal(const Position *pos, Move m);

/* For a pseudo-legal m: whether it leaves the own king safe (and, for castling, that
 * the king is not in check and does not pass an attacked square). */
bool pseudo_legal_move_is_legal(const Position *pos, Move m);

#endif

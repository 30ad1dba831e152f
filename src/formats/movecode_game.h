/* Whole games as move codes (movecode.h): a move list to a code string and back, with
 * the piece numbering kept by a MoveCodeTracker rather than recomputed for every move. */
#ifndef SAAVEDRA_MOVECODE_GAME_H
#define SAAVEDRA_MOVECODE_GAME_H

#include <stdint.h>

#include "board/position.h"

/* Whole games: n moves played one after the other from start. The functions return the
 * number of moves converted: n on success, i < n when moves[i] is not legal (encode) or
 * codes[i] names no legal move (decode), the first i outputs being valid. They keep
 * piece numbers with a MoveCodeTracker, checked against from-scratch numbering in
 * debug builds. */
int movecode_encode_game(const Position *start, const Move *moves, int n, uint8_t *codes);
int movecode_decode_game(const Position *start, const uint8_t *codes, int n, Move *moves);

#endif

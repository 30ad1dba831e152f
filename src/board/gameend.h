/* Game-end detection on the board: the results an engine may claim (mate, stalemate,
 * threefold repetition, the 50-move rule, insufficient material) and their xboard
 * result strings. */
#ifndef SAAVEDRA_GAMEEND_H
#define SAAVEDRA_GAMEEND_H

#include "board/position.h"

typedef enum {
    GAME_ONGOING,
    GAME_WHITE_MATES,
    GAME_BLACK_MATES,
    GAME_STALEMATE,
    GAME_REPETITION,
    GAME_FIFTY_MOVES,
    GAME_INSUFFICIENT_MATERIAL
} GameEnd;

/* How the game stands in pos (with its history). Mate beats the 50-move rule: a mate
 * delivered on the hundredth half-move stands. Insufficient material is claimed only
 * where xboard accepts it (FIDE): K v K, K+minor v K, K+B v K+B with same-coloured
 * bishops. */
GameEnd game_end_status(const Position *pos);

/* "1-0 {White mates}", "1/2-1/2 {Stalemate}", ...; NULL for GAME_ONGOING. */
const char *game_end_result(GameEnd end);

#endif

/* Move notation: UCI long algebraic and SAN, both directions. */
#ifndef SAAVEDRA_NOTATION_H
#define SAAVEDRA_NOTATION_H

#include "board/position.h"

/* "e2e4", "e7e8q", "0000" for the null move. buf needs 6 bytes. */
char *move_to_uci(Move m, char *buf);
/* As move_to_uci, with castling written king-takes-own-rook ("f1h1") when game (any
 * position of the game: the rook squares are fixed for a game) is in Chess960 mode. */
char *move_to_uci_game(const Position *game, Move m, char *buf);
/* Finds the legal move written in UCI notation; MOVE_NONE if there is none. Accepts
 * castling written as king-takes-rook ("e1h1") as some GUIs send it; in Chess960 mode
 * only that way (there "f1g1" is the king's step, never a castling). */
Move move_from_uci(const Position *pos, const char *text);

/* Standard algebraic notation with disambiguation, promotion and check/mate marks.
 * buf needs 10 bytes. */
char *move_to_san(Position *pos, Move m, char *buf);
/* Tolerant SAN reader: accepts 0-0 / O-O, e8Q / e8=Q / e8(Q), exd6e.p., trailing
 * annotations (+ # ! ?), lowercase-free piece letters, and long algebraic (e2-e4, Ng1f3)
 * and UCI. Returns MOVE_NONE when no single legal move matches. */
Move move_from_san(const Position *pos, const char *text);

/* Appends the moves of a line to the string in buf, in SAN separated by spaces; with
 * numbered, move numbers as in "12. Nf3 Nc6" or "12... Nc6 13. d4". pos is the position
 * before the line and is left after the last move written. Stops at the first illegal
 * move, or before buf would overflow. Returns how many moves were written. */
int line_to_san(Position *pos, const Move *line, int length, bool numbered, char *buf, size_t size);

#endif

/* xboard's old `edit` mode: a board edited square by square ("c" switches colour, "Pa4"
 * puts a piece, "xa4" empties a square, "#" clears the board, "." ends), then turned into
 * a FEN with castling rights for kings and rooks on their home squares, no en passant and
 * fresh move counters, as the protocol specifies. */
#ifndef SAAVEDRA_XBEDIT_H
#define SAAVEDRA_XBEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"

typedef struct {
    char board[SQUARE_NB];  /* FEN letters, '\0' for empty */
    Color color;            /* colour of pieces being placed */
} XbEdit;

/* Starts from the current position's pieces, placing white pieces. */
void xbedit_begin(XbEdit *ed, const Position *pos);
/* Applies one edit subcommand other than "."; false if it is not one. */
bool xbedit_command(XbEdit *ed, const char *cmd);
/* The edited position as FEN with the given side to move. */
void xbedit_fen(const XbEdit *ed, Color side, char *fen, size_t size);

#endif

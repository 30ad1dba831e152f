/* FEN text and its fields, both ways. Reading checks all that the text alone can show:
 * the placement (eight ranks of eight squares, one king a side, no more pieces than
 * promotions allow, no pawn on the first or last rank), the side to move, the castling
 * rights against the king and rook squares (KQkq, X-FEN or Shredder-FEN rook files), the
 * en-passant square against the pawns, and the counters. position_from_fen (position.h)
 * builds the position from the fields and checks the rest (who is in check). */
#ifndef SAAVEDRA_FEN_H
#define SAAVEDRA_FEN_H

#include <stddef.h>

#include "board/types.h"

typedef struct {
    uint8_t board[SQUARE_NB];  /* a Piece per square, NO_PIECE when empty */
    Color side;
    int castling;              /* the rights, WHITE_OO | ... */
    Square castle_rook[4];     /* the rook of each right (castle_index), or NO_SQUARE */
    bool files_used;           /* rights written as rook files: Chess960 notation */
    Square ep;                 /* the en-passant square as written, NO_SQUARE for "-" */
    int rule50;                /* halfmove clock (0 when absent, as in EPD) */
    int fullmove;              /* from 1 (1 when absent) */
} FenFields;

/* The FEN letter of a piece ("PNBRQK", "pnbrqk"); ' ' for NO_PIECE. */
char fen_piece_char(Piece p);

/* Reads a FEN (or the first four fields of an EPD line) into *out. On failure writes a
 * one-line reason to err and returns false (*out is then partly written). If end is not
 * NULL it receives a pointer just past the fields consumed, and text after them (an
 * EPD's operations) is not an error. */
bool fen_read(const char *fen, FenFields *out, char *err, size_t err_size, const char **end);

/* Writes the FEN of f into buf (at least 100 bytes); castling as KQkq, or as rook files
 * (Shredder-FEN) when chess960. */
void fen_write(const FenFields *f, bool chess960, char *buf);

/* The piece-placement field of a FEN from the 64 squares (a1 = 0; a piece letter or 0
 * for empty); buf must hold 72 bytes. Returns its length. */
size_t fen_placement_from_squares(const char squares[64], char *buf);
/* A FEN of the 64 squares, side to move stm, no castling, no en passant; buf must hold
 * 100 bytes. */
void fen_from_squares(const char squares[64], Color stm, char *buf);

#endif

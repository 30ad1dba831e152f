/* Pawn structure: the terms that depend on pawns alone, cached per thread in a hash table
 * keyed by the pawn key, plus the king's pawn shelter cached in the same entry. */
#ifndef SAAVEDRA_PAWNS_H
#define SAAVEDRA_PAWNS_H

#include "eval/params.h"
#include "board/position.h"
#include "eval/trace.h"

typedef struct {
    Key key;
    Bitboard passed[COLOR_NB];      /* passed pawns (front-most of a file only) */
    Bitboard attacks[COLOR_NB];     /* squares attacked by the pawns */
    Bitboard attack_span[COLOR_NB]; /* squares the pawns attack now or after advancing */
    Score structure[COLOR_NB];      /* isolated, doubled, ..., passed by rank */
    Score psqt[COLOR_NB];           /* pawn piece-square scores */
    int semiopen[COLOR_NB];         /* bit f set: no pawn of this colour on file f */
    /* King shelter cache: valid for this king square and castling rights. */
    Score king[COLOR_NB];
    uint8_t king_square[COLOR_NB];
    uint8_t king_castling[COLOR_NB];
} PawnEntry;

/* A pawn hash table for one thread. */
typedef struct PawnTable PawnTable;

PawnTable *pawn_table_new(void);
void pawn_table_free(PawnTable *table);
void pawn_table_clear(PawnTable *table);

/* Read-only masks built by pawns_init (called by eval_init). */
extern Bitboard FORWARD_FILE[COLOR_NB][SQUARE_NB];  /* squares ahead on the same file */
extern Bitboard PASSED_SPAN[COLOR_NB][SQUARE_NB];   /* ahead on this and adjacent files */
extern Bitboard ATTACK_SPAN[COLOR_NB][SQUARE_NB];   /* ahead on adjacent files */
extern Bitboard FORWARD_RANKS[COLOR_NB][8];         /* ranks strictly ahead of a rank */
extern Bitboard ADJACENT_FILES[8];

void pawns_init(void);

/* (In the tuner build both take a trailing EvalCoeffs *, see eval/trace.h; with a trace
 * the caller passes no table, so that every term is computed and recorded.) */
/* The entry for pos's pawns: from table when it holds them, otherwise computed (into the
 * table, or into *scratch when table is NULL). */
PawnEntry *pawns_probe(const Position *pos, PawnTable *table, PawnEntry *scratch TRACE_PARAM);

/* Pawn shelter and storm around c's king (mg) and king-pawn distance (eg), from c's
 * point of view; cached in the entry. */
Score pawns_king_safety(const Position *pos, PawnEntry *e, Color c TRACE_PARAM);

/* Rear-most / front-most pawn of a set from c's point of view. */
static inline Square rearmost_square(Color c, Bitboard b) { return c == WHITE ? lsb(b) : msb(b); }
static inline Square frontmost_square(Color c, Bitboard b) { return c == WHITE ? msb(b) : lsb(b); }

#endif

/* Static evaluation: tapered middlegame/endgame score in centipawns from the side to
 * move's point of view. The pawn-structure cache is per search thread. */
#ifndef SAAVEDRA_EVALUATE_H
#define SAAVEDRA_EVALUATE_H

#include <stdio.h>

#include "position.h"

typedef struct PawnTable PawnTable;

/* Builds read-only tables (KPK bitbase, masks). Call once at start-up. */
void eval_init(void);

/* A pawn hash table for one thread (size in entries, a power of two). */
PawnTable *pawn_table_new(void);
void pawn_table_free(PawnTable *table);
void pawn_table_clear(PawnTable *table);

/* pawns may be NULL (no caching). */
int evaluate(const Position *pos, PawnTable *pawns);

/* Term-by-term breakdown for the `eval` console command. */
void eval_print(const Position *pos, FILE *out);

#endif

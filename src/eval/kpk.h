/* King and pawn versus king bitbase: for every placement and side to move, whether the
 * pawn's side wins. Generated at start-up by retrograde iteration (~200k positions). */
#ifndef SAAVEDRA_KPK_H
#define SAAVEDRA_KPK_H

#include "board/types.h"

/* Builds the bitbase (idempotent; called by eval_init). */
void kpk_init(void);

/* True when the side with the pawn (strong) wins with best play. Squares are real board
 * squares; the position must be legal for side to move stm. */
bool kpk_probe(Color strong, Square strong_king, Square pawn, Square weak_king, Color stm);

#endif

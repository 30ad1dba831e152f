/* Placeholder evaluation (material only) so that search can be built and tested;
 * replaced by the full hand-crafted evaluation. */
#include "evaluate.h"

#include <stdlib.h>

struct PawnTable {
    int unused;
};

static const int PIECE_VALUE[PIECE_TYPE_NB] = { 100, 320, 330, 500, 950, 0 };

void eval_init(void) {}

PawnTable *pawn_table_new(void) { return calloc(1, sizeof(PawnTable)); }
void pawn_table_free(PawnTable *table) { free(table); }
void pawn_table_clear(PawnTable *table) { (void)table; }

int evaluate(const Position *pos, PawnTable *pawns)
{
    (void)pawns;
    int score = 0;
    for (PieceType pt = PAWN; pt < KING; pt++)
        score += PIECE_VALUE[pt] * (popcount(pieces_cp(pos, WHITE, pt)) - popcount(pieces_cp(pos, BLACK, pt)));
    return pos->side == WHITE ? score : -score;
}

void eval_print(const Position *pos, FILE *out)
{
    fprintf(out, "material: %d (side to move)\n", evaluate(pos, NULL));
}

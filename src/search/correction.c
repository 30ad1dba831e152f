/* Correction history: indexing and the update rule (correction.h). */
#include "search/correction.h"

/* Entries hold centipawns times CORRECTION_GRAIN, so that shallow searches can move them
 * by less than a centipawn; CORRECTION_LIMIT bounds each table, so that the weighted sum
 * (pawns twice, material once, over two) stays within CORRECTION_BOUND. */
enum {
    CORRECTION_GRAIN = 256, CORRECTION_LIMIT = 64 * CORRECTION_GRAIN, CORRECTION_WEIGHT_MAX = 16
};

static inline int clamp_int(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline unsigned pawn_index(const Position *pos)
{
    return (unsigned)(pos_state(pos)->pawn_key >> 32) & (CORRECTION_ENTRIES - 1);
}

/* The material balance as a number: 4 bits for the count of each piece type of each
 * colour (kings left out), spread over the table by a multiplicative hash. */
static inline unsigned material_index(const Position *pos)
{
    uint64_t counts = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        for (PieceType pt = PAWN; pt <= QUEEN; pt++)
            counts = counts << 4 | (uint64_t)(popcount(pieces_cp(pos, c, pt)) & 15);
    return (unsigned)((counts * 0x9E3779B97F4A7C15ULL) >> 40) & (CORRECTION_ENTRIES - 1);
}

_Static_assert(3 * CORRECTION_LIMIT / (2 * CORRECTION_GRAIN) == CORRECTION_BOUND,
               "the bound follows the limit");

int correction_value(const History *h, const Position *pos)
{
    Color us = pos->side;
    int sum = 2 * h->pawn_correction[us][pawn_index(pos)]
            + h->material_correction[us][material_index(pos)];
    return sum / (2 * CORRECTION_GRAIN);
}

static inline void move_entry(int16_t *entry, int target, int weight)
{
    int v = (*entry * (256 - weight) + target * weight) / 256;
    *entry = (int16_t)clamp_int(v, -CORRECTION_LIMIT, CORRECTION_LIMIT);
}

void correction_update(History *h, const Position *pos, int depth, int best, int eval)
{
    Color us = pos->side;
    int target = clamp_int((best - eval) * CORRECTION_GRAIN, -CORRECTION_LIMIT, CORRECTION_LIMIT);
    int weight = depth + 1 < CORRECTION_WEIGHT_MAX ? depth + 1 : CORRECTION_WEIGHT_MAX;
    move_entry(&h->pawn_correction[us][pawn_index(pos)], target, weight);
    move_entry(&h->material_correction[us][material_index(pos)], target, weight);
}

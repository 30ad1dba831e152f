/* See nnue_positions.h. */
#include "nnue_positions.h"

#include "board/movegen.h"
#include "util/random.h"

int nnue_test_material(const Position *pos, Color c)
{
    static const int value[] = { 100, 300, 300, 500, 900, 0 };
    int sum = 0;
    for (int pt = PAWN; pt < KING; pt++)
        sum += value[pt] * popcount(pieces_cp(pos, c, pt));
    return sum;
}

void nnue_test_material_set(PosSet *set, int count, uint64_t seed)
{
    static Position pos;
    char err[160];
    uint64_t rng = seed;
    while ((int)set->count < count) {
        position_from_fen(&pos, START_FEN, err, sizeof err, NULL);
        int plies = 10 + (int)(splitmix64(&rng) % 110);
        for (int i = 0; i < plies; i++) {
            MoveList list;
            generate_legal(&pos, &list);
            if (list.count == 0)
                break;
            make_move(&pos, list.moves[splitmix64(&rng) % (uint64_t)list.count]);
            position_bound_history(&pos, 16);
        }
        int balance = nnue_test_material(&pos, pos.side) - nnue_test_material(&pos, !pos.side);
        if (balance > 1500 || balance < -1500)
            continue;
        posset_add(set, &pos, balance, 1);
    }
}

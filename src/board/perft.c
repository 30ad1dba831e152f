#include "board/perft.h"

#include <inttypes.h>

#include "board/movegen.h"
#include "board/notation.h"
#include "util/timeutil.h"

uint64_t perft(Position *pos, int depth)
{
    Move moves[MAX_MOVES];
    Move *end = generate_moves(pos, moves, GEN_ALL);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)(end - moves) : 1;
    uint64_t nodes = 0;
    for (Move *m = moves; m < end; m++) {
        make_move(pos, *m);
        nodes += perft(pos, depth - 1);
        unmake_move(pos, *m);
    }
    return nodes;
}

uint64_t perft_divide(Position *pos, int depth, FILE *out)
{
    MoveList list;
    char buf[8];
    uint64_t total = 0;
    int64_t start = time_now_ms();
    generate_legal(pos, &list);
    if (depth >= 1)
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            make_move(pos, m);
            uint64_t n = perft(pos, depth - 1);
            unmake_move(pos, m);
            total += n;
            fprintf(out, "%s: %" PRIu64 "\n", move_to_uci_game(pos, m, buf), n);
        }
    else
        total = 1;
    int64_t elapsed = time_now_ms() - start;
    fprintf(out, "\nTime: %" PRId64 " ms\nNodes/second: %" PRIu64 "\nNodes searched: %" PRIu64 "\n",
            elapsed, total * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1), total);
    fflush(out);
    return total;
}

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

/* perft with a stop flag: 0 once it is set (the caller then ignores the count). */
static uint64_t perft_stoppable(Position *pos, int depth, const atomic_bool *stop)
{
    if (depth < 3)
        return perft(pos, depth);
    if (atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    Move moves[MAX_MOVES];
    Move *end = generate_moves(pos, moves, GEN_ALL);
    uint64_t nodes = 0;
    for (Move *m = moves; m < end; m++) {
        make_move(pos, *m);
        nodes += perft_stoppable(pos, depth - 1, stop);
        unmake_move(pos, *m);
    }
    return nodes;
}

uint64_t perft_divide_until(Position *pos, int depth, Writer *out, const atomic_bool *stop)
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
            uint64_t n = stop ? perft_stoppable(pos, depth - 1, stop) : perft(pos, depth - 1);
            unmake_move(pos, m);
            if (stop && atomic_load(stop)) {
                writer_printf(out, "perft stopped after %d of %d root moves\n", i, list.count);
                return total;
            }
            total += n;
            writer_printf(out, "%s: %" PRIu64 "\n", move_to_uci_game(pos, m, buf), n);
        }
    else
        total = 1;
    int64_t elapsed = time_now_ms() - start;
    writer_printf(out, "\nTime: %" PRId64 " ms\nNodes/second: %" PRIu64
            "\nNodes searched: %" PRIu64 "\n",
            elapsed, total * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1), total);
    return total;
}

uint64_t perft_divide(Position *pos, int depth, Writer *out)
{
    return perft_divide_until(pos, depth, out, NULL);
}

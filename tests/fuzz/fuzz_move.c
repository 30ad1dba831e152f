/* SAN and UCI move readers: the first byte picks a position, the rest is a list of move
 * words. A move either reader accepts must be legal and print back (SAN and UCI) as text
 * that reads as the same move; it is then played, so later words meet later positions. */
#include "fuzz.h"

#include "board/movegen.h"
#include "board/notation.h"
#include "board/position.h"

static const char *const FENS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1",
    "N3k2N/8/8/8/8/8/8/N3K2N w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1",
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos;
    if (size == 0)
        return 0;
    char err[160];
    fuzz_require(position_from_fen(&pos, FENS[data[0] % (sizeof FENS / sizeof *FENS)], err, sizeof err, NULL));
    char *text = fuzz_cstr(data + 1, size - 1);
    int played = 0;
    for (char *word = strtok(text, " \t\r\n"); word && played < 200; word = strtok(NULL, " \t\r\n")) {
        Move by_san = move_from_san(&pos, word);
        Move by_uci = move_from_uci(&pos, word);
        char san[16], uci[8];
        for (int k = 0; k < 2; k++) {
            Move m = k ? by_uci : by_san;
            if (m == MOVE_NONE)
                continue;
            fuzz_require(move_is_legal(&pos, m));
            move_to_san(&pos, m, san);
            fuzz_require(move_from_san(&pos, san) == m);
            fuzz_require(move_from_uci(&pos, move_to_uci(m, uci)) == m);
        }
        Move m = by_san != MOVE_NONE ? by_san : by_uci;
        if (m != MOVE_NONE) {
            make_move(&pos, m);
            played++;
        }
    }
    free(text);
    return 0;
}

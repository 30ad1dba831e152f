/* Opening book reader (own format and Polyglot): arbitrary bytes as a book file. A book
 * that opens is probed along a walk from the start position (the first book move each
 * time, else the first legal move): every move it gives must be legal, at most the
 * number asked for. */
#include "fuzz.h"

#include "board/movegen.h"
#include "opening/book.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos;
    static BookMove moves[BOOK_MOVES_MAX];
    char err[256];
    Book *book = book_open_bytes(data, size, "fuzz.bin", err, sizeof err);
    if (!book) {
        fuzz_require(err[0] && !strchr(err, '\n'));
        return 0;
    }
    book_kind(book);
    book_position_count(book);
    book_entry_count(book);
    fuzz_require(position_from_fen(&pos, START_FEN, err, sizeof err, NULL));
    for (int ply = 0; ply < 24; ply++) {
        int n = book_probe(book, &pos, moves, 8);
        fuzz_require(n >= 0 && n <= 8);
        for (int i = 0; i < n; i++)
            fuzz_require(move_is_legal(&pos, moves[i].move));
        uint64_t rng = 1;
        int pick = book_choose(moves, n, 50, &rng);
        fuzz_require(pick >= -1 && pick < n);
        MoveList list;
        generate_legal(&pos, &list);
        if (list.count == 0)
            break;
        make_move(&pos, n > 0 ? moves[0].move : list.moves[0]);
    }
    book_close(book);
    return 0;
}

/* makebook's PGN input: arbitrary bytes as a PGN file (the first byte chooses whether it
 * is read under the annotated source's rules) added to a book builder, and the book
 * written and opened again. The book must open, and every move it gives along the first
 * book line must be legal. */
#include <unistd.h>

#include "board/movegen.h"
#include "board/position.h"
#include "opening/book.h"
#include "toolkit/bookbuild.h"
#include "fuzz.h"

static char book_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    snprintf(book_path, sizeof book_path, "/dev/shm/saavedra-fuzz-book-%ld.bin", (long)getpid());
    if (access("/dev/shm", W_OK) != 0)
        snprintf(book_path, sizeof book_path, "/tmp/saavedra-fuzz-book-%ld.bin", (long)getpid());
    return 0;
}

static void quiet(void *ctx, const char *message)
{
    (void)ctx;
    fuzz_require(message && !strchr(message, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos;
    static BookMove moves[BOOK_MOVES_MAX];
    if (size < 2)
        return 0;
    FILE *in = fmemopen((void *)(data + 1), size - 1, "r");
    if (!in)
        return 0;
    BookBuildOptions opts = { 1, 0 };
    BookBuilder *b = bookbuild_new(&opts);
    fuzz_require(b != NULL);
    char err[300];
    bookbuild_add_stream(b, in, "fuzz.pgn", data[0] & 1, quiet, NULL, NULL, NULL, err, sizeof err);
    fclose(in);
    BookBuildSummary sum;
    if (bookbuild_stats(b)->games > 0 && bookbuild_write(b, book_path, 0, &sum, err, sizeof err)) {
        Book *book = book_open(book_path, err, sizeof err);
        fuzz_require(book != NULL);
        char fen_err[160];
        fuzz_require(position_from_fen(&pos, START_FEN, fen_err, sizeof fen_err, NULL));
        for (int ply = 0; ply < 40; ply++) {
            int n = book_probe(book, &pos, moves, BOOK_MOVES_MAX);
            fuzz_require(n >= 0 && n <= BOOK_MOVES_MAX);
            if (n == 0)
                break;
            for (int i = 0; i < n; i++)
                fuzz_require(move_is_legal(&pos, moves[i].move));
            make_move(&pos, moves[0].move);
        }
        book_close(book);
        unlink(book_path);
    }
    bookbuild_free(b);
    return 0;
}

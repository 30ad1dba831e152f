/* PGN reader: arbitrary bytes as a PGN file, read to its end. Every move it reports must
 * be legal in the position it reports with it. */
#include "fuzz.h"

#include "board/movegen.h"
#include "formats/pgn.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    return 0;
}

static void quiet(void *ctx, const char *message)
{
    (void)ctx;
    fuzz_require(message && !strchr(message, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    PgnReader *r = pgn_open_stream(in, "fuzz.pgn", quiet, NULL);
    if (r) {
        const PgnItem *it;
        long items = 0;
        while ((it = pgn_next(r))->event != PGN_EOF) {
            if (it->event == PGN_MOVE && it->move != MOVE_NULL)
                fuzz_require(move_is_legal(it->position, it->move));
            fuzz_require(++items < 100000000);
        }
        pgn_close(r);
    }
    fclose(in);
    return 0;
}

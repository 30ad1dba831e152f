/* FEN reader: arbitrary text as a FEN. A position accepted must print as a FEN that
 * reads back to the same position, have a consistent key, and survive make/unmake of
 * every legal move. */
#include "fuzz.h"

#include "board/movegen.h"
#include "board/position.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos, again;
    char *text = fuzz_cstr(data, size);
    char err[160], fen[128], fen2[128];
    const char *end = NULL;
    if (position_from_fen(&pos, text, err, sizeof err, &end)) {
        fuzz_require(end >= text && end <= text + strlen(text));
        fuzz_require(pos_key(&pos) == position_compute_key(&pos));
        position_to_fen(&pos, fen);
        fuzz_require(position_from_fen(&again, fen, err, sizeof err, NULL));
        position_to_fen(&again, fen2);
        fuzz_require(!strcmp(fen, fen2));
        fuzz_require(pos_key(&again) == pos_key(&pos));
        MoveList list;
        generate_legal(&pos, &list);
        for (int i = 0; i < list.count; i++) {
            make_move(&pos, list.moves[i]);
            fuzz_require(pos_key(&pos) == position_compute_key(&pos));
            unmake_move(&pos, list.moves[i]);
        }
        fuzz_require(pos_key(&pos) == pos_key(&again));
    } else {
        fuzz_require(err[0] && !strchr(err, '\n'));
    }
    free(text);
    return 0;
}

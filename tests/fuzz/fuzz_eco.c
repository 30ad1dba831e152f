/* ECO classification as ecocoder does it: arbitrary bytes as a PGN file; each game's
 * main line is pushed through the built-in ECO table. Every classification must name an
 * entry of the table with a code and a name that split into opening and variation. */
#include "board/movegen.h"
#include "board/position.h"
#include "board/position_copy.h"
#include "formats/pgn.h"
#include "opening/eco.h"
#include "fuzz.h"

static const EcoTable *table;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    char why[160];
    table = eco_builtin(why, sizeof why);
    if (!table) {
        fprintf(stderr, "fuzz_eco: %s\n", why);
        abort();
    }
    return 0;
}

static void quiet(void *ctx, const char *message)
{
    (void)ctx;
    fuzz_require(message && !strchr(message, '\n'));
}

static void check_entry(int index)
{
    if (index == ECO_NONE)
        return;
    const EcoEntry *e = eco_entry(table, index);
    fuzz_require(e && e->code && e->name);
    char opening[256], variation[256];
    eco_split_name(e->name, opening, sizeof opening, variation, sizeof variation);
    fuzz_require(strlen(opening) < sizeof opening && strlen(variation) < sizeof variation);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos;
    static EcoGame eco;
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    PgnReader *r = pgn_open_stream(in, "fuzz.pgn", quiet, NULL);
    if (r) {
        const PgnItem *it;
        eco_game_reset(&eco, NULL, 0);
        while ((it = pgn_next(r))->event != PGN_EOF) {
            switch (it->event) {
            case PGN_GAME_START:
                eco_game_reset(&eco, NULL, 0);
                break;
            case PGN_MOVETEXT:
                position_copy_current(&pos, it->position);
                eco_game_reset(&eco, table, pos_key(&pos));
                break;
            case PGN_MOVE:
                if (it->depth == 0) {
                    if (it->move == MOVE_NULL)
                        make_null_move(&pos);
                    else
                        make_move(&pos, it->move);
                    position_trim_history(&pos);
                    eco_game_push(&eco, pos_key(&pos));
                    check_entry(eco_game_current(&eco));
                }
                break;
            case PGN_GAME_END:
                check_entry(eco_game_best(&eco));
                break;
            default:
                break;
            }
        }
        pgn_close(r);
    }
    fclose(in);
    return 0;
}

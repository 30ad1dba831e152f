/* xboard line handler: arbitrary bytes as an xboard session (xboard_loop to end of
 * input), on one engine kept across inputs. Lines that ask for work whose cost is not a
 * bug are dropped: bench, test, perft, memory / Hash (gigabytes), egtpath / Syzygy,
 * cores / Threads, learning and book files. End of input stops any search at once, so
 * every session ends. */
#include "fuzz.h"

#include "engine/engine.h"
#include "eval/evaluate.h"
#include "protocol/xboard.h"
#include "search/search.h"

static Engine *engine;
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    eval_init();
    search_init();
    engine = engine_new();
    sink = fopen("/dev/null", "w");
    if (!engine || !sink)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const DROP[] = { "bench", "test", "perft", "memory", "hash", "egtpath", "syzygy",
                                        "cores", "thread", "learn", "book", NULL };
    size_t n;
    char *text = fuzz_drop_lines(data, size, DROP, &n);
    FILE *in = n ? fmemopen(text, n, "r") : NULL;
    if (in) {
        xboard_loop(engine, in, sink, NULL);
        fuzz_require(!engine_is_searching(engine));
        fclose(in);
    }
    free(text);
    return 0;
}

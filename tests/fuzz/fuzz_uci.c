/* UCI line handler: arbitrary bytes as a UCI session (uci_loop to end of input), on one
 * engine kept across inputs. Lines that ask for work whose cost is not a bug are dropped:
 * bench, test (file system), perft, Hash (gigabytes), SyzygyPath, Threads, and the learning
 * and book files (LearningFile, BookFile: written or read anywhere). End of input
 * stops any search at once, so every session ends. */
#include "fuzz.h"

#include "engine/engine.h"
#include "eval/evaluate.h"
#include "protocol/uci.h"
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
    static const char *const DROP[] = { "bench", "test", "perft", "hash", "syzygy", "thread", "learn", "book", NULL };
    size_t n;
    char *text = fuzz_drop_lines(data, size, DROP, &n);
    FILE *in = n ? fmemopen(text, n, "r") : NULL;
    if (in) {
        uci_loop(engine, in, sink, NULL);
        fuzz_require(!engine_is_searching(engine));
        fclose(in);
    }
    free(text);
    return 0;
}

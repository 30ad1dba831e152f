/* xboard line handler: arbitrary bytes as an xboard session (xboard_loop to end of
 * input; see fuzz_session.h). Dropped lines: bench, test, perft, memory / Hash
 * (gigabytes), egtpath / Syzygy, cores / Threads, learning and book files. Dictionary:
 * tests/fuzz/xboard.dict. */
#include "fuzz_session.h"

#include "protocol/xboard.h"

static FuzzSession session;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_session_init(&session);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const DROP[] = { "bench", "test", "perft", "memory", "hash", "egtpath", "syzygy",
                                        "cores", "thread", "learn", "book", NULL };
    fuzz_session_run(&session, xboard_loop, DROP, data, size);
    return 0;
}

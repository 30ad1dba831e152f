/* UCI line handler: arbitrary bytes as a UCI session (uci_loop to end of input; see
 * fuzz_session.h). Dropped lines: bench, test (file system), perft, Hash (gigabytes),
 * SyzygyPath, Threads, and the learning and book files (LearningFile, BookFile: written
 * or read anywhere). Dictionary: tests/fuzz/uci.dict. */
#include "fuzz_session.h"

#include "protocol/uci.h"

static FuzzSession session;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_session_init(&session);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const DROP[] = { "bench", "test", "perft", "hash", "syzygy", "thread", "learn", "book", NULL };
    fuzz_session_run(&session, uci_loop, DROP, data, size);
    return 0;
}

/* Forced into every unit-test file of the Windows build (Makefile): the engine's POSIX
 * names from util/platform.h, and what only tests use. The tests that need fork, FIFOs
 * or signals are skipped under Windows (tests/windows/run.sh names them). */
#include "util/platform.h"

#include <unistd.h>

#define WIFSIGNALED(s) 0
#define WTERMSIG(s) 0
#define S_ISLNK(m) 0
#define alarm(s) ((void)(s))
#define mkfifo(path, mode) (errno = ENOSYS, -1)

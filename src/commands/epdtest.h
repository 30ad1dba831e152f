/* The `test` command: runs an EPD test suite (bm/am positions) through the engine, as in
 * Arasan:
 *
 *   test FILE.epd -d DEPTH | -t SECONDS [-x COUNT] [-N VARIATIONS] [-o OUTFILE] [-v]
 *
 * -d / -t   fixed depth, or seconds per position (one of them is required; -t may be
 *           fractional)
 * -x COUNT  stop a position early once the correct move has been the best move for COUNT
 *           consecutive iterations
 * -N VARS   search and show that many variations (MultiPV)
 * -o FILE   also write the output to FILE (a new name or a regular file is written to a
 *           temporary name, then renamed; a link, device or FIFO is written through; the
 *           suite itself is refused)
 * -v        verbose: every iteration of every position
 *
 * Per position: number, id, expected (bm, or "not" am) and found move in SAN, correct or
 * not, score, time and nodes to solution, depth, and the PV. At the end: a grid of
 * solution times, `correct: k/n`, and averages. The hash table and histories are cleared
 * before each position; book, learning and strength limits are off during the test, and
 * every option touched and the engine's game position are restored afterwards. The time
 * asked for with -t is searched in full: Move Overhead (a reserve for sending a move to a
 * GUI) does not apply to a test. */
#ifndef SAAVEDRA_EPDTEST_H
#define SAAVEDRA_EPDTEST_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"
#include "util/writer.h"

/* A way to end a running test early (the user typed stop or quit): polled about every
 * 20 ms while a position is searched; when it returns true the search is stopped, that
 * position is reported and the summary of the positions so far is printed. */
typedef struct {
    bool (*stop_requested)(void *ctx);
    void *ctx;
} EpdTestInterrupt;

typedef struct {
    int positions;     /* positions searched (records with bm or am) */
    int correct;
    int skipped;       /* unreadable records or records without bm/am */
    bool interrupted;  /* ended early through the EpdTestInterrupt */
} EpdTestSummary;

/* Runs the test with arguments argv[0..argc-1] (after the word `test`). Output goes to
 * out; interrupt may be NULL (the test then runs to its end). Returns false with a one-line
 * reason in err (empty otherwise) for bad arguments, a file that cannot be opened or read,
 * or an output file that cannot be written.
 * summary may be NULL. Must not be called while the engine is searching. */
bool epdtest_run(Engine *e, int argc, char **argv, Writer *out, const EpdTestInterrupt *interrupt,
                 EpdTestSummary *summary, char *err, size_t err_size);

#endif

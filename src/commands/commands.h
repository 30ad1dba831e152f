/* The console commands every front end understands: d, eval, eco, perft, bench, test,
 * tbcheck, help.
 * The plain console, the UCI loop and the xboard loop all hand a line they do not know
 * themselves to commands_run, so the commands behave the same whichever protocol is on. */
#ifndef SAAVEDRA_COMMANDS_H
#define SAAVEDRA_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"
#include "util/writer.h"

/* The input a long command (test) watches while it runs, one of two kinds:
 * - in: a stream this thread reads (console, UCI), its lines logged in the log of the
 *   command's writer (util/writer.h). A line `stop` or `quit` typed meanwhile
 *   ends the command early (its summary still prints); quit is then set for the caller to
 *   leave afterwards. Other lines are answered with a note and dropped.
 * - stop_requested (with in NULL): a front end that reads its input elsewhere (xboard's
 *   reader thread) answers, about every 20 ms, whether its user asked to stop; what else
 *   arrived meanwhile is its own business (it may keep lines for later).
 * An all-zero CommandInput (or NULL) lets the command run to its end. */
typedef struct {
    FILE *in;
    bool (*stop_requested)(void *ctx);
    void *ctx;
    bool quit;   /* out: the user typed quit (stream input only) */
    bool ended;  /* out: the input ended during the command (stream input only) */
} CommandInput;

/* Whether the first word of line is one of the commands. */
bool commands_run_known(const char *line);

/* Runs line if its first word is one of the commands; returns false (nothing done) when
 * it is not one, for the caller to treat the line as its own. Output goes to out as plain
 * text; a command refused (bad arguments, unreadable file) leaves a one-line
 * reason in err, empty otherwise, for the caller to send in its protocol's error format.
 * input may be NULL. perft runs on the engine's search thread and returns at once
 * (engine_perft); while it or a search runs, every command is refused with a reason in
 * err. */
bool commands_run(Engine *e, const char *line, CommandInput *input, Writer *out, char *err,
                  size_t err_size);

#endif

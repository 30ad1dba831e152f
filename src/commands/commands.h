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

/* The input a long command (test) watches while it runs: a line `stop` or `quit` typed
 * meanwhile ends it early (its summary still prints); quit is then set for the caller to
 * leave afterwards. Other lines typed during the run are answered with a note and dropped.
 * Only a reader that owns `in` on this thread may pass it (xboard's reader thread does
 * not: it passes NULL, and a test there runs to its end). */
typedef struct {
    FILE *in;
    bool quit;   /* out: the user typed quit */
    bool ended;  /* out: the input ended during the command */
} CommandInput;

/* Whether the first word of line is one of the commands. */
bool commands_run_known(const char *line);

/* Runs line if its first word is one of the commands; returns false (nothing done) when
 * it is not one, for the caller to treat the line as its own. Output goes to out as plain
 * text (flushed); a command refused (bad arguments, unreadable file) leaves a one-line
 * reason in err, empty otherwise, for the caller to send in its protocol's error format.
 * input may be NULL. perft runs on the engine's search thread and returns at once
 * (engine_perft); while it or a search runs, every command is refused with a reason in
 * err. */
bool commands_run(Engine *e, const char *line, CommandInput *input, FILE *out, char *err,
                  size_t err_size);

#endif

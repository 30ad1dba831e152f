/* The UCI protocol: parses commands, drives the engine, prints `info` and `bestmove`.
 * Console commands (d, eval, perft, bench, help) work inside the loop as well. */
#ifndef SAAVEDRA_UCI_H
#define SAAVEDRA_UCI_H

#include <stdio.h>

#include "engine/engine.h"
#include "util/writer.h"

/* Runs the UCI loop until `quit` or end of input. first_line (may be NULL) is handled as
 * if it had been read first: main.c hands over the line that chose UCI at the
 * console. The lines read are logged in out's log. Returns the process exit status. */
int uci_loop(Engine *e, FILE *in, Writer *out, const char *first_line);

#endif

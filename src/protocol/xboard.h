/* The xboard/WinBoard protocol (CECP version 2): features, game commands, time controls,
 * pondering on the predicted reply, analysis, edit mode, result claims, draw offers and
 * resignation, rating-aware contempt. Thin: search, time and options are the engine's.
 * Console commands (d, eval, perft, bench, test, help) work inside the loop too. */
#ifndef SAAVEDRA_XBOARD_H
#define SAAVEDRA_XBOARD_H

#include <stdio.h>

#include "engine/engine.h"
#include "util/writer.h"

/* Runs the xboard loop until `quit` or end of input. first_line (may be NULL) is handled
 * as if it had been read first (main.c hands over the console's `xboard` line). The
 * lines read are logged in out's log. Returns the process exit status. */
int xboard_loop(Engine *e, FILE *in, Writer *out, const char *first_line);

#endif

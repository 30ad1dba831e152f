/* The first reader of standard input: serves console commands (d, eval, perft, bench,
 * help) and hands the stream to a protocol loop when a protocol's command arrives
 * (`uci` or any other UCI command; `xboard` once that protocol exists). */
#ifndef SAAVEDRA_CONSOLE_H
#define SAAVEDRA_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"

int console_loop(Engine *e, FILE *in, FILE *out);

/* Handles a console command shared by every protocol loop; returns false when line is
 * not one (the caller then treats it as its own). Output goes to out as plain text; a
 * command refused (bad arguments, unreadable file) leaves a one-line reason in err, empty
 * otherwise, for the caller to send in its protocol's error format. */
bool console_command(Engine *e, const char *line, FILE *out, char *err, size_t err_size);

#endif

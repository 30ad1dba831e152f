/* The first reader of standard input: serves the console commands (commands/commands.h)
 * until a protocol's command arrives (`xboard`, `uci` or any other line that is not a
 * console command: UCI is the default), then returns which protocol was asked for and
 * the line that asked. main.c starts that protocol's loop with the line; the console
 * knows no protocol loop, so the protocols can use the console commands without an
 * include cycle. */
#ifndef SAAVEDRA_CONSOLE_H
#define SAAVEDRA_CONSOLE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"
#include "util/textline.h"
#include "util/writer.h"

/* The longest line the console reads, as long as a UCI line. */
#define CONSOLE_LINE_MAX PROTOCOL_LINE_MAX

typedef enum { CONSOLE_QUIT, CONSOLE_UCI, CONSOLE_XBOARD } ConsoleExit;

/* Reads and serves lines until `quit` or end of input (CONSOLE_QUIT) or a protocol's
 * line, which is left in line (size bytes, CONSOLE_LINE_MAX is enough for any line). The
 * lines read are logged in out's log. */
ConsoleExit console_loop(Engine *e, FILE *in, Writer *out, char *line, size_t size);

#endif

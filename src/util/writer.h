/* The engine's text output, one line at a time. Every line goes out through one function
 * (emit, in writer.c): it writes the line and its newline to the writer's stream and
 * flushes it, so that nothing waits in a buffer for an exit or a crash to lose, and
 * copies it into the protocol log (util/iolog.h) as "> line" when the writer has one.
 * One lock per writer keeps each line whole: the search thread reports while the
 * protocol loop answers. The protocol writer is stdout with the -l log; the command-line
 * subcommands and the tests write through writers without a log.
 *
 * writer_send takes a whole line; writer_printf takes text as fprintf does and holds an
 * unfinished line until its newline comes (tables built piece by piece). Its held line
 * is one per writer: one thread at a time prints piecewise (a console command), while
 * whole lines from other threads go out untouched meanwhile. */
#ifndef SAAVEDRA_WRITER_H
#define SAAVEDRA_WRITER_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/iolog.h"

typedef struct Writer {
    FILE *file;
    IoLog *log;            /* NULL: no log; the reading side logs its lines here too */
    pthread_mutex_t lock;
    bool failed;           /* a write failed: the reader went away */
    char *held;            /* writer_printf's unfinished line (len bytes, cap allocated) */
    size_t len, cap;
} Writer;

/* A writer to file, logging into log (NULL for none). */
void writer_init(Writer *w, FILE *file, IoLog *log);
/* Sends an unfinished line as it is, then frees what the writer holds (not file or log). */
void writer_destroy(Writer *w);

/* Sends line, its newline added (a newline inside it ends a line there). */
void writer_send(Writer *w, const char *line);
/* Text as fprintf takes it: each line goes out when its newline is written. */
void writer_printf(Writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void writer_vprintf(Writer *w, const char *fmt, va_list ap);

/* Whether a write to the stream has failed (the GUI is gone). */
bool writer_failed(Writer *w);

#endif

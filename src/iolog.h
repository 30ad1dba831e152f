/* Protocol line I/O: reading commands and writing replies, one line at a time, with an
 * optional timestamped log of both directions (-l FILE) and optional trace lines (-t).
 *
 * Writers may be several threads (the protocol loop and the search reporting from its
 * thread): every line is written and flushed under one lock, so lines never interleave
 * and the log shows them in the order the GUI received them. */
#ifndef SAAVEDRA_IOLOG_H
#define SAAVEDRA_IOLOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *in;
    FILE *out;
    FILE *log;              /* NULL: no protocol log */
    bool trace;             /* -t: trace lines ("# ...") are written */
    int64_t start_ms;       /* log timestamps are relative to this */
    pthread_mutex_t lock;
} ProtoIo;

/* Sets up io on the given streams (normally stdin/stdout), no log, no trace. */
void protoio_init(ProtoIo *io, FILE *in, FILE *out);
/* Opens (appending) the protocol log; false with a reason in err on failure. */
bool protoio_open_log(ProtoIo *io, const char *path, char *err, size_t err_size);
void protoio_close(ProtoIo *io);

/* Reads one line without its line ending (CR LF or LF); false at end of input.
 * Over-long lines are truncated to size-1 characters, the rest discarded. */
bool protoio_read_line(ProtoIo *io, char *buf, size_t size);

/* Writes one line (a newline is appended) and flushes. */
void protoio_write(ProtoIo *io, const char *line);
void protoio_printf(ProtoIo *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes "# ..." only when tracing is on. */
void protoio_trace(ProtoIo *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records a line in the log only (e.g. notes such as "engine started"). */
void protoio_log_note(ProtoIo *io, const char *line);

#endif

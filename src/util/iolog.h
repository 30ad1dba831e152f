/* Protocol log (-l FILE): every line the engine reads and writes, timestamped, in the
 * order they passed. It wraps the protocol streams instead of asking each protocol to
 * log: iolog_wrap_input/iolog_wrap_output return FILE streams that behave like the ones
 * they wrap (line-buffered output) and copy each complete line to the log. The log is
 * shared by both directions under one lock, so lines never interleave. */
#ifndef SAAVEDRA_IOLOG_H
#define SAAVEDRA_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/textline.h"

typedef struct IoLog IoLog;

/* Opens path for appending; NULL with a reason in err on failure. Only a regular file
 * (or a terminal) is taken: a FIFO, device or folder is refused, and opening never
 * blocks. A write error warns once on stderr and ends logging; so does the size limit
 * (a note in the log says so). */
IoLog *iolog_open(const char *path, char *err, size_t err_size);
/* A log that writes nowhere until iolog_retarget names a file (NULL: out of memory). */
IoLog *iolog_new(void);
/* From now on appends to path, as iolog_open opens it, after closing the file in use;
 * "" stops logging. On failure nothing changes and err says why. */
bool iolog_retarget(IoLog *log, const char *path, char *err, size_t err_size);
/* The size at which logging stops (default 256 MB). */
void iolog_set_limit(IoLog *log, size_t bytes);
/* Closes the log and frees it (close the wrapped streams first). */
void iolog_close(IoLog *log);

/* A stream reading from fd-backed `in`, logging each line read as "< line". */
FILE *iolog_wrap_input(IoLog *log, FILE *in);
/* A line-buffered stream writing to `out`, logging each line written as "> line". */
FILE *iolog_wrap_output(IoLog *log, FILE *out);

/* Writes a note ("-- text") into the log. */
void iolog_note(IoLog *log, const char *text);

/* A line read ("< line") and a line sent ("> text"), a trailing '\r' left out; log may
 * be NULL (nothing is logged). */
void iolog_in(IoLog *log, const char *line);
void iolog_out(IoLog *log, const char *text, size_t len);
/* line_read (util/textline.h) that logs the line read, a refused one too (as far as its
 * first NUL byte). */
LineStatus iolog_read_line(IoLog *log, FILE *in, char *buf, size_t size);

#endif

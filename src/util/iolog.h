/* Protocol log (-l FILE, Debug Log File): every line the engine reads and writes,
 * time-stamped, in the order they passed. Nothing wraps the streams: the one function
 * that sends output lines (util/writer.h) logs each as "> line", and the protocol loops
 * log each line where they read it ("< line", iolog_read_line). One lock serves both
 * directions, so lines never interleave, and every line is flushed to the file as it is
 * logged, so an exit or a crash loses none. */
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
/* Closes the log and frees it (after the writers and readers that log into it). */
void iolog_close(IoLog *log);

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

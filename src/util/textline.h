/* Bounded line input for the console, the UCI loop and engine.rc: a line is read whole
 * or refused whole. An over-long line is consumed to its end (its tail is never taken
 * for a further line), and a NUL byte inside a line is reported instead of silently
 * cutting the line there, as fgets and strlen would. */
#ifndef SAAVEDRA_TEXTLINE_H
#define SAAVEDRA_TEXTLINE_H

#include <stddef.h>
#include <stdio.h>

/* The one policy of the protocol loops (console, UCI, xboard): a command line holds at
 * most PROTOCOL_LINE_MAX - 1 bytes (16384 moves of a `position ... moves` fit), and a
 * line that is longer or holds a NUL byte is refused whole. */
#define PROTOCOL_LINE_MAX 65536

typedef enum {
    LINE_OK,        /* buf holds the line, without its newline */
    LINE_TOO_LONG,  /* longer than size - 1 characters: skipped */
    LINE_HAS_NUL,   /* holds a NUL byte: skipped */
    LINE_END,       /* end of input, nothing read */
    LINE_ERROR      /* the stream failed (errno says why); nothing more can be read */
} LineStatus;

/* Reads the next line of in into buf (size >= 1). The last line need not end with a
 * newline. */
LineStatus line_read(FILE *in, char *buf, size_t size);

#endif

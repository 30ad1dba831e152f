/* The xboard front end's line to the GUI. Output: whole lines through the writer
 * (util/writer.h), which keeps them whole while the main thread and the search thread
 * both write. Input: a reader thread queues the lines
 * read; the end of a search is posted to the same queue, so the main loop waits on one
 * thing and sees lines and search ends in the order they happened. */
#ifndef SAAVEDRA_XBIO_H
#define SAAVEDRA_XBIO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "board/types.h"
#include "util/iolog.h"
#include "util/writer.h"

typedef struct {
    Writer *writer;
} XbOut;

void xbout_init(XbOut *o, Writer *writer);
/* One line (newline added). */
void xb_send(XbOut *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "# ..." debug line, only with -t. */
void xb_trace(XbOut *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* XB_EVENT_LINE_REFUSED: a line too long or holding a NUL byte, refused whole under the
 * protocol loops' one line policy (util/textline.h); *line then says which. */
typedef enum {
    XB_EVENT_LINE, XB_EVENT_LINE_REFUSED, XB_EVENT_SEARCH_DONE, XB_EVENT_INPUT_CLOSED
} XbEvent;

typedef struct {
    char *text;
    bool refused;                /* text is the reason the line was refused */
} XbQueued;

/* Lines read ahead of the main loop at most; the reader waits for room beyond. */
#define XB_QUEUE_MAX 4096

typedef struct {
    FILE *in;
    IoLog *log;                  /* where the reader logs the lines it reads, or NULL */
    pthread_t reader;
    pthread_mutex_t lock;        /* guards everything up to done_ponder */
    pthread_cond_t wake;
    XbQueued *lines;             /* ring buffer of lines read and not yet taken */
    int line_head, line_count, line_cap;
    bool input_closed;
    bool stopping;               /* the session ends: a reader waiting for room gives up */
    bool search_done;            /* a search has ended; the main loop must collect it */
    Move done_best, done_ponder;

    /* Commands held back while the engine thinks on its move (ping, usermove, ...);
     * main thread only. */
    char **deferred;
    int deferred_count, deferred_cap;
} XbInput;

void xbinput_init(XbInput *q);
/* Frees what is still queued or held back; the reader must have been stopped. */
void xbinput_destroy(XbInput *q);
/* Starts the reader thread on in, logging the lines it reads into log (may be NULL). */
bool xbinput_start(XbInput *q, FILE *in, IoLog *log);
/* Ends the reader (cancelled if still blocked on input) and joins it. */
void xbinput_stop(XbInput *q);
/* Waits for the next event: the end of a search first, then input lines in order
 * (*line is then a malloc'ed line for the caller), then the end of input. */
XbEvent xbinput_wait(XbInput *q, char **line);

/* Takes the next queued input line without waiting (a posted search end stays for
 * xbinput_wait): XB_EVENT_LINE or XB_EVENT_LINE_REFUSED with *line malloc'ed for the
 * caller, XB_EVENT_INPUT_CLOSED when the input has ended, or false when nothing is
 * queued. */
bool xbinput_poll(XbInput *q, XbEvent *ev, char **line);

/* The input watched while a console command (test) runs on the main thread. Lines that
 * arrive are held back (xbinput_defer) to run after the command, in order, so that force,
 * new and quit still take effect and a ping is answered after the command's output. `?`,
 * force, new and quit end the command as they end a search (`?` only that). The end of
 * input does not: like a perft piped in, the bounded work runs to its end. */
typedef struct {
    XbInput *input;
    Writer *out;
    bool stop;                   /* out: one of the stopping commands arrived */
} XbWatch;
/* EpdTestInterrupt-style poll (ctx is an XbWatch): whether to end the command now. */
bool xbwatch_stop_requested(void *ctx);

/* The search thread's end of a search, with its best and ponder moves. */
void xbinput_post_search_done(XbInput *q, Move best, Move ponder);
/* Takes the posted end of a search (a search stopped on purpose leaves one to drop);
 * best and ponder may be NULL. */
void xbinput_take_search_done(XbInput *q, Move *best, Move *ponder);

/* Holds a command back until the engine has moved. */
void xbinput_defer(XbInput *q, const char *line);
/* The oldest command held back (malloc'ed, for the caller), or NULL when none. */
char *xbinput_next_deferred(XbInput *q);

#endif

/* xboard input: a reader thread queues the lines from the GUI; the main loop waits for
 * the next line or the end of a search. Part of the xboard front end (see xbstate.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "protocol/xbstate.h"

static void queue_push(Xb *xb, char *line)
{
    pthread_mutex_lock(&xb->lock);
    if (xb->line_count == xb->line_cap) {
        int cap = xb->line_cap ? xb->line_cap * 2 : 64;
        char **grown = malloc((size_t)cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&xb->lock);
            free(line);
            return;
        }
        for (int i = 0; i < xb->line_count; i++)
            grown[i] = xb->lines[(xb->line_head + i) % xb->line_cap];
        free(xb->lines);
        xb->lines = grown;
        xb->line_cap = cap;
        xb->line_head = 0;
    }
    xb->lines[(xb->line_head + xb->line_count++) % xb->line_cap] = line;
    pthread_cond_broadcast(&xb->wake);
    pthread_mutex_unlock(&xb->lock);
}

static void free_line(void *arg)
{
    free(*(char **)arg);
}

/* Reads lines until end of input. Cancelled at `quit` while blocked in getline (a
 * cancellation point; glibc releases the stream's lock on cancellation). */
static void *reader_main(void *arg)
{
    Xb *xb = arg;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    pthread_cleanup_push(free_line, &line);
    while ((n = getline(&line, &cap, xb->in)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        char *copy = strdup(line);
        if (copy)
            queue_push(xb, copy);
    }
    pthread_cleanup_pop(1);
    pthread_mutex_lock(&xb->lock);
    xb->input_closed = true;
    pthread_cond_broadcast(&xb->wake);
    pthread_mutex_unlock(&xb->lock);
    return NULL;
}

void xb_defer(Xb *xb, const char *line)
{
    if (xb->deferred_count == xb->deferred_cap) {
        int cap = xb->deferred_cap ? xb->deferred_cap * 2 : 16;
        char **grown = realloc(xb->deferred, (size_t)cap * sizeof *grown);
        if (!grown)
            return;
        xb->deferred = grown;
        xb->deferred_cap = cap;
    }
    char *copy = strdup(line);
    if (copy)
        xb->deferred[xb->deferred_count++] = copy;
}

bool xb_input_start(Xb *xb, FILE *in)
{
    xb->in = in;
    return pthread_create(&xb->reader, NULL, reader_main, xb) == 0;
}

void xb_input_stop(Xb *xb)
{
    pthread_mutex_lock(&xb->lock);
    bool done = xb->input_closed;
    pthread_mutex_unlock(&xb->lock);
    /* `quit` with input still open: the reader is blocked in getline; cancel it so the
     * stream can be closed by the caller and the session freed. */
    if (!done)
        pthread_cancel(xb->reader);
    pthread_join(xb->reader, NULL);
}

XbEvent xb_input_wait(Xb *xb, char **line)
{
    XbEvent ev;
    *line = NULL;
    pthread_mutex_lock(&xb->lock);
    while (!xb->search_done && xb->line_count == 0 && !xb->input_closed)
        pthread_cond_wait(&xb->wake, &xb->lock);
    if (xb->search_done) {
        ev = XB_EVENT_SEARCH_DONE;
    } else if (xb->line_count > 0) {
        *line = xb->lines[xb->line_head];
        xb->line_head = (xb->line_head + 1) % xb->line_cap;
        xb->line_count--;
        ev = XB_EVENT_LINE;
    } else {
        ev = XB_EVENT_INPUT_CLOSED;
    }
    pthread_mutex_unlock(&xb->lock);
    return ev;
}

/* xboard input and output: see xbio.h. */
#define _GNU_SOURCE
#include "protocol/xbio.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/config.h"
#include "util/textline.h"
#include "util/platform.h"

/* ---- output ---- */

void xbout_init(XbOut *o, Writer *writer)
{
    o->writer = writer;
}

static void send_va(XbOut *o, const char *prefix, const char *fmt, va_list ap)
{
    char line[8192];
    size_t p = strlen(prefix);
    memcpy(line, prefix, p + 1);
    vsnprintf(line + p, sizeof line - p - 1, fmt, ap);
    writer_send(o->writer, line);
}

void xb_send(XbOut *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    send_va(o, "", fmt, ap);
    va_end(ap);
}

void xb_trace(XbOut *o, const char *fmt, ...)
{
    if (!config_trace())
        return;
    va_list ap;
    va_start(ap, fmt);
    send_va(o, "# ", fmt, ap);
    va_end(ap);
}

/* ---- input ---- */

void xbinput_init(XbInput *q)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->wake, NULL);
}

void xbinput_destroy(XbInput *q)
{
    for (int i = 0; i < q->line_count; i++)
        free(q->lines[(q->line_head + i) % q->line_cap].text);
    free(q->lines);
    for (int i = 0; i < q->deferred_count; i++)
        free(q->deferred[i]);
    free(q->deferred);
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->wake);
}

/* Past XB_QUEUE_MAX lines (or when memory is short) the reader waits for room, so a
 * flood of input neither grows memory without bound nor loses a line. */
/* Queues a line (refused: a reason for the main loop to report instead). */
static void queue_push(XbInput *q, char *line, bool refused)
{
    pthread_mutex_lock(&q->lock);
    while (q->line_count == q->line_cap) {
        int cap = q->line_cap ? q->line_cap * 2 : 64;
        XbQueued *grown = cap <= XB_QUEUE_MAX ? malloc((size_t)cap * sizeof *grown) : NULL;
        if (!grown) {
            if (q->stopping) {
                pthread_mutex_unlock(&q->lock);
                free(line);
                return;
            }
            pthread_cond_wait(&q->wake, &q->lock); /* take_line makes room */
            continue;
        }
        for (int i = 0; i < q->line_count; i++)
            grown[i] = q->lines[(q->line_head + i) % q->line_cap];
        free(q->lines);
        q->lines = grown;
        q->line_cap = cap;
        q->line_head = 0;
    }
    q->lines[(q->line_head + q->line_count++) % q->line_cap] = (XbQueued){ line, refused };
    pthread_cond_broadcast(&q->wake);
    pthread_mutex_unlock(&q->lock);
}

/* Cancelled inside line_read: it held the stream's lock (the line buffer has a handler
 * of its own, outside). */
static void unlock_stream(void *arg)
{
    funlockfile(arg);
}

/* Reads lines until end of input, with the protocol loops' one line policy (textline.h).
 * Cancelled at `quit` while blocked in line_read: cancellation is allowed only there,
 * where the thread holds the stream's lock, which the cleanup handler then releases so
 * that the caller can close the stream. */
static void *reader_main(void *arg)
{
    XbInput *q = arg;
    char *line = malloc(PROTOCOL_LINE_MAX);
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    /* Freed by this handler also when `quit` cancels the thread inside line_read. */
    pthread_cleanup_push(free, line);
    for (LineStatus st = LINE_OK; line;) {
        pthread_cleanup_push(unlock_stream, q->in);
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
        st = line_read(q->in, line, PROTOCOL_LINE_MAX);
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
        pthread_cleanup_pop(0);
        if (st == LINE_END || st == LINE_ERROR)
            break;
        /* Logged here, where cancellation cannot leave the log's lock held. */
        iolog_in(q->log, line);
        size_t n = strlen(line);
        while (n > 0 && line[n - 1] == '\r')
            line[--n] = '\0';
        const char *text = st == LINE_TOO_LONG ? "line too long"
                         : st == LINE_HAS_NUL  ? "NUL byte in line"
                                               : line;
        char *copy = strdup(text);
        /* Memory short for a moment: wait rather than lose the line. */
        for (int wait = 0; !copy && wait < 1000; wait++) {
            nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
            copy = strdup(text);
        }
        if (copy)
            queue_push(q, copy, st != LINE_OK);
    }
    pthread_cleanup_pop(1);
    pthread_mutex_lock(&q->lock);
    q->input_closed = true;
    pthread_cond_broadcast(&q->wake);
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

bool xbinput_start(XbInput *q, FILE *in, IoLog *log)
{
    q->in = in;
    q->log = log;
    return pthread_create(&q->reader, NULL, reader_main, q) == 0;
}

void xbinput_stop(XbInput *q)
{
    pthread_mutex_lock(&q->lock);
    bool done = q->input_closed;
    q->stopping = true;
    pthread_cond_broadcast(&q->wake);
    pthread_mutex_unlock(&q->lock);
    /* `quit` with input still open: the reader is blocked in line_read; interrupt it so
     * the stream can be closed by the caller and the session freed. */
    pf_end_reader(q->reader, !done);
}

/* The oldest queued line (the lock held, one queued). */
static XbEvent take_line(XbInput *q, char **line)
{
    XbQueued next = q->lines[q->line_head];
    *line = next.text;
    q->line_head = (q->line_head + 1) % q->line_cap;
    q->line_count--;
    pthread_cond_broadcast(&q->wake); /* a reader may wait for room */
    return next.refused ? XB_EVENT_LINE_REFUSED : XB_EVENT_LINE;
}

XbEvent xbinput_wait(XbInput *q, char **line)
{
    XbEvent ev;
    *line = NULL;
    pthread_mutex_lock(&q->lock);
    while (!q->search_done && q->line_count == 0 && !q->input_closed)
        pthread_cond_wait(&q->wake, &q->lock);
    if (q->search_done)
        ev = XB_EVENT_SEARCH_DONE;
    else if (q->line_count > 0)
        ev = take_line(q, line);
    else
        ev = XB_EVENT_INPUT_CLOSED;
    pthread_mutex_unlock(&q->lock);
    return ev;
}

bool xbinput_poll(XbInput *q, XbEvent *ev, char **line)
{
    bool got = true;
    *line = NULL;
    pthread_mutex_lock(&q->lock);
    if (q->line_count > 0)
        *ev = take_line(q, line);
    else if (q->input_closed)
        *ev = XB_EVENT_INPUT_CLOSED;
    else
        got = false;
    pthread_mutex_unlock(&q->lock);
    return got;
}

/* Whether line's first word is one of the commands that end a console command. */
static bool stops_a_command(const char *line, bool *move_now)
{
    static const char *const STOPS[] = {"?", "force", "new", "quit"};
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strcspn(line, " \t");
    for (size_t i = 0; i < sizeof STOPS / sizeof *STOPS; i++)
        if (n == strlen(STOPS[i]) && !strncmp(line, STOPS[i], n)) {
            *move_now = i == 0;
            return true;
        }
    return false;
}

bool xbwatch_stop_requested(void *ctx)
{
    XbWatch *w = ctx;
    XbEvent ev;
    char *line;
    while (!w->stop && xbinput_poll(w->input, &ev, &line) && ev != XB_EVENT_INPUT_CLOSED) {
        bool move_now = false;
        if (ev == XB_EVENT_LINE_REFUSED) {
            writer_printf(w->out, "Error (%s): ignored\n", line);
        } else {
            w->stop = stops_a_command(line, &move_now);
            if (!move_now)
                xbinput_defer(w->input, line);
        }
        free(line);
    }
    return w->stop;
}

void xbinput_post_search_done(XbInput *q, Move best, Move ponder)
{
    pthread_mutex_lock(&q->lock);
    q->done_best = best;
    q->done_ponder = ponder;
    q->search_done = true;
    pthread_cond_broadcast(&q->wake);
    pthread_mutex_unlock(&q->lock);
}

void xbinput_take_search_done(XbInput *q, Move *best, Move *ponder)
{
    pthread_mutex_lock(&q->lock);
    if (best)
        *best = q->done_best;
    if (ponder)
        *ponder = q->done_ponder;
    q->search_done = false;
    pthread_mutex_unlock(&q->lock);
}

void xbinput_defer(XbInput *q, const char *line)
{
    if (q->deferred_count == q->deferred_cap) {
        int cap = q->deferred_cap ? q->deferred_cap * 2 : 16;
        char **grown = realloc(q->deferred, (size_t)cap * sizeof *grown);
        if (!grown)
            return;
        q->deferred = grown;
        q->deferred_cap = cap;
    }
    char *copy = strdup(line);
    if (copy)
        q->deferred[q->deferred_count++] = copy;
}

char *xbinput_next_deferred(XbInput *q)
{
    if (q->deferred_count == 0)
        return NULL;
    char *line = q->deferred[0];
    memmove(q->deferred, q->deferred + 1, (size_t)(q->deferred_count - 1) * sizeof *q->deferred);
    q->deferred_count--;
    return line;
}

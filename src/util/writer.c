/* The engine's text output: see writer.h. */
#include "util/writer.h"

#include <stdlib.h>
#include <string.h>

void writer_init(Writer *w, FILE *file, IoLog *log)
{
    memset(w, 0, sizeof *w);
    w->file = file;
    w->log = log;
    pthread_mutex_init(&w->lock, NULL);
}

/* The one way out (the lock held): line, without its newline, to the stream, flushed,
 * and to the log. A line the stream refused is logged all the same: it is what the
 * engine said when the GUI went away. */
static void emit(Writer *w, const char *line, size_t len)
{
    if (fwrite(line, 1, len, w->file) != len || putc('\n', w->file) == EOF || fflush(w->file) != 0)
        w->failed = true;
    iolog_out(w->log, line, len);
}

/* Adds text to the unfinished line (the lock held). Out of memory, what is held and
 * text go out as lines of their own rather than being lost: false, nothing is held. */
static bool hold(Writer *w, const char *text, size_t len)
{
    if (w->len + len > w->cap) {
        size_t cap = 2 * (w->len + len) + 256;
        char *grown = realloc(w->held, cap);
        if (!grown) {
            emit(w, w->held, w->len);
            w->len = 0;
            emit(w, text, len);
            return false;
        }
        w->held = grown;
        w->cap = cap;
    }
    memcpy(w->held + w->len, text, len);
    w->len += len;
    return true;
}

void writer_destroy(Writer *w)
{
    if (w->len > 0)
        emit(w, w->held, w->len);
    free(w->held);
    pthread_mutex_destroy(&w->lock);
    memset(w, 0, sizeof *w);
}

void writer_send(Writer *w, const char *line)
{
    pthread_mutex_lock(&w->lock);
    for (;;) {
        size_t n = strcspn(line, "\n");
        emit(w, line, n);
        if (!line[n])
            break;
        line += n + 1;
    }
    pthread_mutex_unlock(&w->lock);
}

/* fmt formatted into buf (size bytes), or into a malloc'ed string when it is longer;
 * *len gets its length. Out of memory, the text is cut to fit buf. */
static char *format(char *buf, size_t size, size_t *len, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(buf, size, fmt, ap);
    char *text = buf;
    if (n < 0)
        n = 0;
    else if ((size_t)n >= size) {
        char *big = malloc((size_t)n + 1);
        if (big)
            vsnprintf(big, (size_t)n + 1, fmt, again);
        text = big ? big : buf;
        n = big ? n : (int)size - 1;
    }
    va_end(again);
    *len = (size_t)n;
    return text;
}

void writer_vprintf(Writer *w, const char *fmt, va_list ap)
{
    char buf[1024];
    size_t len;
    char *text = format(buf, sizeof buf, &len, fmt, ap);
    const char *p = text, *end = text + len, *nl;
    pthread_mutex_lock(&w->lock);
    for (; (nl = memchr(p, '\n', (size_t)(end - p))) != NULL; p = nl + 1) {
        if (w->len == 0) {
            emit(w, p, (size_t)(nl - p));
            continue;
        }
        if (hold(w, p, (size_t)(nl - p)))
            emit(w, w->held, w->len);
        w->len = 0;
    }
    if (p < end)
        hold(w, p, (size_t)(end - p));
    pthread_mutex_unlock(&w->lock);
    if (text != buf)
        free(text);
}

void writer_printf(Writer *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    writer_vprintf(w, fmt, ap);
    va_end(ap);
}

bool writer_failed(Writer *w)
{
    pthread_mutex_lock(&w->lock);
    bool failed = w->failed;
    pthread_mutex_unlock(&w->lock);
    return failed;
}

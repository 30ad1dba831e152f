/* Protocol line I/O with an optional timestamped log (see iolog.h). */
#include "iolog.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "timeutil.h"

void protoio_init(ProtoIo *io, FILE *in, FILE *out)
{
    io->in = in;
    io->out = out;
    io->log = NULL;
    io->trace = false;
    io->start_ms = time_now_ms();
    pthread_mutex_init(&io->lock, NULL);
}

/* Log line: wall-clock time, milliseconds since start, direction, text. Caller locks. */
static void log_line(ProtoIo *io, const char *dir, const char *line)
{
    if (!io->log)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    fprintf(io->log, "%02d:%02d:%02d.%03ld %8lld %s %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
            ts.tv_nsec / 1000000, (long long)(time_now_ms() - io->start_ms), dir, line);
    fflush(io->log);
}

bool protoio_open_log(ProtoIo *io, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(err, err_size, "cannot open log file %s", path);
        return false;
    }
    pthread_mutex_lock(&io->lock);
    if (io->log)
        fclose(io->log);
    io->log = f;
    log_line(io, "--", "log opened");
    pthread_mutex_unlock(&io->lock);
    return true;
}

void protoio_close(ProtoIo *io)
{
    pthread_mutex_lock(&io->lock);
    if (io->log) {
        log_line(io, "--", "log closed");
        fclose(io->log);
        io->log = NULL;
    }
    pthread_mutex_unlock(&io->lock);
}

bool protoio_read_line(ProtoIo *io, char *buf, size_t size)
{
    if (!fgets(buf, (int)size, io->in))
        return false;
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] != '\n' && !feof(io->in)) {
        int c;
        while ((c = fgetc(io->in)) != EOF && c != '\n')
            ;
    }
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    if (io->log) {
        pthread_mutex_lock(&io->lock);
        log_line(io, "<", buf);
        pthread_mutex_unlock(&io->lock);
    }
    return true;
}

void protoio_write(ProtoIo *io, const char *line)
{
    pthread_mutex_lock(&io->lock);
    fputs(line, io->out);
    fputc('\n', io->out);
    fflush(io->out);
    log_line(io, ">", line);
    pthread_mutex_unlock(&io->lock);
}

static void write_va(ProtoIo *io, const char *prefix, const char *fmt, va_list ap)
{
    char line[8192];
    size_t p = strlen(prefix);
    memcpy(line, prefix, p + 1);
    vsnprintf(line + p, sizeof line - p, fmt, ap);
    protoio_write(io, line);
}

void protoio_printf(ProtoIo *io, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    write_va(io, "", fmt, ap);
    va_end(ap);
}

void protoio_trace(ProtoIo *io, const char *fmt, ...)
{
    if (!io->trace)
        return;
    va_list ap;
    va_start(ap, fmt);
    write_va(io, "# ", fmt, ap);
    va_end(ap);
}

void protoio_log_note(ProtoIo *io, const char *line)
{
    pthread_mutex_lock(&io->lock);
    log_line(io, "--", line);
    pthread_mutex_unlock(&io->lock);
}

/* Protocol log: see iolog.h. */
#include "util/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/platform.h"
#include "util/textline.h"
#include "util/timeutil.h"

/* A longer line is logged cut to this many characters (the protocol is not cut). */
#define LOG_LINE_MAX 8192

/* A log that outgrows this stops (one note says so): it must never fill a disk. */
#define LOG_MAX_BYTES_DEFAULT ((size_t)256 << 20)

struct IoLog {
    FILE *file;            /* NULL once logging stopped (write error, size limit) */
    char path[512];
    pthread_mutex_t lock;
    int64_t start_ms;
    size_t written, limit;
};

/* Wall-clock time, milliseconds since the log was opened, tag, text. Caller locks. */
static void log_write(IoLog *log, const char *tag, const char *text, size_t len)
{
    if (!log->file)
        return;
    if (len > LOG_LINE_MAX)
        len = LOG_LINE_MAX;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    if (log->written + len + 40 > log->limit) {
        fprintf(log->file, "-- log size limit (%zu bytes) reached; logging stops\n", log->limit);
        fclose(log->file);
        log->file = NULL;
        return;
    }
    int n = fprintf(log->file, "%02d:%02d:%02d.%03ld %8lld %s %.*s\n", tm.tm_hour, tm.tm_min,
                    tm.tm_sec, ts.tv_nsec / 1000000, (long long)(time_now_ms() - log->start_ms),
                    tag, (int)len, text);
    if (n < 0 || fflush(log->file) != 0 || ferror(log->file)) {
        /* Full disk, quota, a device that refuses: say so once, and stop logging (the
         * protocol goes on). */
        fprintf(stderr, "warning: log file %s: cannot write: %s; logging stops\n", log->path,
                strerror(errno ? errno : EIO));
        fflush(stderr);
        fclose(log->file);
        log->file = NULL;
        return;
    }
    log->written += (size_t)n;
}

/* Opens path as iolog_open says; NULL with a reason in err. *size gets its size. */
static FILE *open_log_file(const char *path, size_t *size, char *err, size_t err_size)
{
    /* O_NONBLOCK: opening a FIFO nobody reads must not hang the start. */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0644);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open log file %s: %s", path,
                 errno == ENXIO ? "not a regular file" : strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || isatty(fd))) {
        close(fd);
        snprintf(err, err_size, "cannot open log file %s: not a regular file", path);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "a");
    if (!f) {
        close(fd);
        snprintf(err, err_size, "cannot open log file %s: %s", path, strerror(errno));
        return NULL;
    }
    *size = (size_t)st.st_size;
    return f;
}

IoLog *iolog_new(void)
{
    IoLog *log = calloc(1, sizeof *log);
    if (!log)
        return NULL;
    log->limit = LOG_MAX_BYTES_DEFAULT;
    log->start_ms = time_now_ms();
    pthread_mutex_init(&log->lock, NULL);
    return log;
}

bool iolog_retarget(IoLog *log, const char *path, char *err, size_t err_size)
{
    size_t size = 0;
    FILE *f = path[0] ? open_log_file(path, &size, err, err_size) : NULL;
    if (path[0] && !f)
        return false;
    pthread_mutex_lock(&log->lock);
    log_write(log, "--", "log closed", strlen("log closed"));
    if (log->file)
        fclose(log->file);
    log->file = f;
    snprintf(log->path, sizeof log->path, "%s", path);
    log->written = size; /* the limit is the file's, across sessions */
    log_write(log, "--", "log opened", strlen("log opened"));
    pthread_mutex_unlock(&log->lock);
    return true;
}

IoLog *iolog_open(const char *path, char *err, size_t err_size)
{
    IoLog *log = iolog_new();
    if (!log) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (!iolog_retarget(log, path, err, err_size)) {
        iolog_close(log);
        return NULL;
    }
    return log;
}

void iolog_close(IoLog *log)
{
    if (!log)
        return;
    iolog_note(log, "log closed");
    if (log->file)
        fclose(log->file);
    pthread_mutex_destroy(&log->lock);
    free(log);
}

void iolog_set_limit(IoLog *log, size_t bytes)
{
    pthread_mutex_lock(&log->lock);
    log->limit = bytes;
    pthread_mutex_unlock(&log->lock);
}

void iolog_note(IoLog *log, const char *text)
{
    pthread_mutex_lock(&log->lock);
    log_write(log, "--", text, strlen(text));
    pthread_mutex_unlock(&log->lock);
}

/* One direction's line: a trailing '\r' (a CRLF line end) is not part of it. */
static void log_line(IoLog *log, const char *tag, const char *text, size_t len)
{
    if (!log)
        return;
    if (len > 0 && text[len - 1] == '\r')
        len--;
    pthread_mutex_lock(&log->lock);
    log_write(log, tag, text, len);
    pthread_mutex_unlock(&log->lock);
}

void iolog_in(IoLog *log, const char *line)
{
    log_line(log, "<", line, strlen(line));
}

void iolog_out(IoLog *log, const char *text, size_t len)
{
    log_line(log, ">", text, len);
}

LineStatus iolog_read_line(IoLog *log, FILE *in, char *buf, size_t size)
{
    LineStatus st = line_read(in, buf, size);
    if (st == LINE_OK || st == LINE_TOO_LONG || st == LINE_HAS_NUL)
        iolog_in(log, buf);
    return st;
}

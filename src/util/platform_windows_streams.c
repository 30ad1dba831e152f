/* Windows side of util/platform.h: FILE streams over read/write functions (fopencookie,
 * which the protocol log's wrapped streams need) and pf_fclose. Built only by make
 * windows; the Makefile picks it with platform_windows.c. */
#define WIN32_LEAN_AND_MEAN
#define _WIN32_WINNT 0x0A000006
#include <windows.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <stdlib.h>
#include <string.h>

#include "util/platform.h"

/* ---- streams over read/write functions ----
 * The Windows C library has no fopencookie. The stream given out is one end of an
 * anonymous pipe (so pf_input_ready can peek at it as at any pipe); a pump thread moves
 * the bytes between the other end and the cookie's read or write function. The streams
 * are kept in a table because fclose (pf_fclose) must finish the pump: an output pump
 * drains the pipe to its end before the cookie is closed, so nothing written is lost. */

typedef struct {
    FILE *stream;
    void *cookie;
    cookie_io_functions_t fns;
    int fd;     /* the pump's end of the pipe */
    bool reads; /* the stream reads: the pump fills the pipe from fns.read */
    HANDLE thread;
} CookiePump;

#define COOKIE_PUMPS_MAX 8
static CookiePump *cookie_pumps[COOKIE_PUMPS_MAX];
static SRWLOCK cookie_pumps_lock = SRWLOCK_INIT;

static unsigned __stdcall cookie_pump_run(void *arg)
{
    CookiePump *p = arg;
    char buf[4096];
    for (;;) {
        if (p->reads) {
            ssize_t n = p->fns.read(p->cookie, buf, sizeof buf);
            if (n <= 0)
                break;
            ssize_t done = 0;
            while (done < n) {
                int w = _write(p->fd, buf + done, (unsigned)(n - done));
                if (w <= 0)
                    break;
                done += w;
            }
            if (done < n)
                break; /* the stream was closed */
        } else {
            int n = _read(p->fd, buf, sizeof buf);
            if (n <= 0)
                break; /* the stream was closed and the pipe drained */
            /* A failed write (the reader went away) drops the bytes but keeps draining,
             * so that the writer never blocks on a full pipe. */
            ssize_t done = 0;
            while (done < n) {
                ssize_t w = p->fns.write(p->cookie, buf + done, (size_t)(n - done));
                if (w <= 0)
                    break;
                done += w;
            }
        }
    }
    _close(p->fd); /* the reading stream sees its end */
    return 0;
}

/* Closes the output streams still open at exit, so their pumps deliver what they hold
 * before the process ends. */
static void cookie_pumps_at_exit(void)
{
    for (int i = 0; i < COOKIE_PUMPS_MAX; i++) {
        AcquireSRWLockExclusive(&cookie_pumps_lock);
        CookiePump *p = cookie_pumps[i];
        ReleaseSRWLockExclusive(&cookie_pumps_lock);
        if (p && !p->reads)
            pf_fclose(p->stream);
    }
}

FILE *fopencookie(void *cookie, const char *mode, cookie_io_functions_t fns)
{
    bool reads = mode[0] == 'r';
    if (reads ? !fns.read : !fns.write) {
        errno = EINVAL;
        return NULL;
    }
    static INIT_ONCE at_exit_once = INIT_ONCE_STATIC_INIT;
    BOOL pending;
    if (InitOnceBeginInitialize(&at_exit_once, 0, &pending, NULL) && pending) {
        atexit(cookie_pumps_at_exit);
        InitOnceComplete(&at_exit_once, 0, NULL);
    }
    CookiePump *p = calloc(1, sizeof *p);
    int fds[2];
    /* Not inherited: a child (gnuplot) holding the write end would keep the pipe open. */
    if (!p || _pipe(fds, 65536, _O_BINARY | _O_NOINHERIT) != 0) {
        free(p);
        errno = ENOMEM;
        return NULL;
    }
    p->cookie = cookie;
    p->fns = fns;
    p->reads = reads;
    p->fd = fds[reads ? 1 : 0];
    p->stream = _fdopen(fds[reads ? 0 : 1], reads ? "rb" : "wb");
    int slot = -1;
    AcquireSRWLockExclusive(&cookie_pumps_lock);
    for (int i = 0; i < COOKIE_PUMPS_MAX && slot < 0; i++)
        if (!cookie_pumps[i])
            slot = i;
    if (slot >= 0 && p->stream)
        cookie_pumps[slot] = p;
    ReleaseSRWLockExclusive(&cookie_pumps_lock);
    if (slot >= 0 && p->stream)
        p->thread = (HANDLE)_beginthreadex(NULL, 0, cookie_pump_run, p, 0, NULL);
    if (!p->thread) {
        AcquireSRWLockExclusive(&cookie_pumps_lock);
        if (slot >= 0 && cookie_pumps[slot] == p)
            cookie_pumps[slot] = NULL;
        ReleaseSRWLockExclusive(&cookie_pumps_lock);
        if (p->stream)
            (fclose)(p->stream);
        else
            _close(fds[reads ? 0 : 1]);
        _close(p->fd);
        free(p);
        errno = slot < 0 ? EMFILE : ENOMEM;
        return NULL;
    }
    return p->stream;
}

int pf_fclose(FILE *f)
{
    CookiePump *p = NULL;
    AcquireSRWLockExclusive(&cookie_pumps_lock);
    for (int i = 0; i < COOKIE_PUMPS_MAX && !p; i++)
        if (cookie_pumps[i] && cookie_pumps[i]->stream == f) {
            p = cookie_pumps[i];
            cookie_pumps[i] = NULL;
        }
    ReleaseSRWLockExclusive(&cookie_pumps_lock);
    int rc = (fclose)(f);
    if (!p)
        return rc;
    if (!p->reads)
        WaitForSingleObject(p->thread, INFINITE); /* it ends at the pipe's end */
    else {
        /* Its pump may wait in the cookie's read for input that never comes: that read
         * is cancelled; a pump that stays blocked is left behind with its cookie (the
         * process is ending), as pf_end_reader leaves a reader. */
        for (int i = 0; i < 25; i++) {
            CancelSynchronousIo(p->thread);
            if (WaitForSingleObject(p->thread, 20) == WAIT_OBJECT_0)
                break;
        }
        if (WaitForSingleObject(p->thread, 0) != WAIT_OBJECT_0)
            return rc;
    }
    CloseHandle(p->thread);
    if (p->fns.close && p->fns.close(p->cookie) != 0)
        rc = EOF;
    free(p);
    return rc;
}

/* Bounded line input (see textline.h). */
#include "util/textline.h"

#include <errno.h>
#include <stdbool.h>

#include "util/platform.h"

LineStatus line_read(FILE *in, char *buf, size_t size)
{
    size_t n = 0;
    bool too_long = false, nul = false, any = false;
    int c;
    flockfile(in); /* one lock for the line, not one per character */
    while ((c = getc_unlocked(in)) != EOF && c != '\n') {
        any = true;
        nul |= c == '\0';
        if (n + 1 < size)
            buf[n++] = (char)c;
        else
            too_long = true;
    }
    bool failed = c == EOF && ferror(in);
    int saved_errno = errno;
    funlockfile(in);
    buf[n] = '\0';
    if (failed) {
        errno = saved_errno;
        return LINE_ERROR;
    }
    if (c == EOF && !any)
        return LINE_END;
    return too_long ? LINE_TOO_LONG : nul ? LINE_HAS_NUL : LINE_OK;
}

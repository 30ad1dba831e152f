/* See errmsg.h. */
#include "util/errmsg.h"

#include <stdarg.h>
#include <stdio.h>

bool error_set(char *err, size_t size, const char *fmt, ...)
{
    if (err && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
        /* Quoted input may hold a newline or other control bytes: the message stays one
         * line that is safe to print (they become '?'). */
        for (char *p = err; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    }
    return false;
}

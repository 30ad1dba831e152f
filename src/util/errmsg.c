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
    }
    return false;
}

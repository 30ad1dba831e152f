/* One-line error messages for functions that report failure as (false, text in a
 * caller's buffer): `return error_set(err, size, "bad %s", x);`. */
#ifndef SAAVEDRA_ERRMSG_H
#define SAAVEDRA_ERRMSG_H

#include <stdbool.h>
#include <stddef.h>

/* Formats the message into err (when err is non-NULL and size > 0), control characters
 * (from quoted input) shown as '?' so that it stays one printable line; returns false. */
bool error_set(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

/* Options of the command-line programs: see args.h. */
#include "util/args.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ArgSpec *find(const ArgSpec *specs, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(specs[i].name, name))
            return &specs[i];
    return NULL;
}

/* The upper bound of a whole-number option: its own, or its type's when it has none. */
static double whole_max(const ArgSpec *s)
{
    double type_max = s->type == ARG_INT ? (double)INT_MAX : (double)UINT64_MAX;
    bool unbounded = s->max == 0;
    return unbounded || s->max > type_max ? type_max : s->max;
}

/* Decimal digits only (no sign, blanks or base prefix: strtoull would take "-1" and
 * " 7"), within min..max. */
static bool whole(const char *text, double min, double max, uint64_t *out)
{
    if (!*text || strspn(text, "0123456789") != strlen(text))
        return false;
    errno = 0;
    unsigned long long x = strtoull(text, NULL, 10);
    if (errno == ERANGE || (double)x < min || (double)x > max)
        return false;
    *out = x;
    return true;
}

bool args_real(const char *text, double min, double max, double *out)
{
    char *end;
    if (!*text || strchr(" \t\n", text[0]))
        return false;
    errno = 0;
    double x = strtod(text, &end);
    if (*end || errno == ERANGE || !isfinite(x) || x < min || x > max)
        return false;
    *out = x;
    return true;
}

/* What a bad value of s should have been, for the error line. */
static void describe(const ArgSpec *s, char *out, size_t size)
{
    bool real = s->type == ARG_REAL || s->type == ARG_FLOAT;
    if (s->max == 0 && (real || s->type != ARG_INT))
        snprintf(out, size, "a %snumber of at least %g", real ? "" : "whole ", s->min);
    else if (real)
        snprintf(out, size, "a number from %g to %g", s->min, s->max);
    else
        snprintf(out, size, "a whole number from %.0f to %.0f", s->min, whole_max(s));
}

static bool store(const ArgSpec *s, const char *value)
{
    uint64_t n;
    double x;
    double max = s->max == 0 ? HUGE_VAL : s->max;
    switch (s->type) {
    case ARG_TEXT:
        *(const char **)s->target = value;
        return true;
    case ARG_INT:
        if (!whole(value, s->min, whole_max(s), &n))
            return false;
        *(int *)s->target = (int)n;
        return true;
    case ARG_U64:
        if (!whole(value, s->min, whole_max(s), &n))
            return false;
        *(uint64_t *)s->target = n;
        return true;
    case ARG_SIZE:
        if (!whole(value, s->min, whole_max(s), &n) || n > SIZE_MAX)
            return false;
        *(size_t *)s->target = (size_t)n;
        return true;
    case ARG_REAL:
        if (!args_real(value, s->min, max, &x))
            return false;
        *(double *)s->target = x;
        return true;
    case ARG_FLOAT:
        if (!args_real(value, s->min, max < FLT_MAX ? max : FLT_MAX, &x))
            return false;
        *(float *)s->target = (float)x;
        return true;
    case ARG_SWITCH:
        break;
    }
    return false;
}

int args_parse(int argc, char **argv, const ArgSpec *specs, int count, char *err, size_t err_size)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *name = argv[i];
        if (name[0] != '-' || !name[1])
            break;
        if (!strcmp(name, "--"))
            return i + 1;
        const ArgSpec *s = find(specs, count, name);
        if (!s) {
            snprintf(err, err_size, "unknown option %s", name);
            return -1;
        }
        if (s->type == ARG_SWITCH) {
            *(bool *)s->target = true;
            continue;
        }
        if (i + 1 >= argc) {
            snprintf(err, err_size, "%s needs a value", name);
            return -1;
        }
        const char *value = argv[++i];
        if (!store(s, value)) {
            char want[96];
            describe(s, want, sizeof want);
            snprintf(err, err_size, "%s wants %s, not '%s'", name, want, value);
            return -1;
        }
    }
    return i;
}

bool args_parse_all(int argc, char **argv, const ArgSpec *specs, int count, char *err,
                    size_t err_size)
{
    int first = args_parse(argc, argv, specs, count, err, err_size);
    if (first >= 0 && first < argc)
        snprintf(err, err_size, "unexpected argument %s", argv[first]);
    return first == argc;
}

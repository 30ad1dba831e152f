/* The evaluation table's C-source format (params.h): printed as the designated initialiser
 * of params.c, which a tuner writes back between its BEGIN/END lines, and read back. */
#include "eval/params.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- Printing as C source ---- */

static void print_value(const ParamInfo *info, int32_t v, FILE *out)
{
    if (info->kind == PARAM_SCORE)
        fprintf(out, "S(%4d, %4d)", mg_value(v), eg_value(v));
    else
        fprintf(out, "%d", v);
}

/* Prints elements [first, first + n) of a field, per_line to a line, at an indent. */
static void print_elements(const EvalParams *p, const ParamInfo *info, int first, int n,
                           const char *indent, FILE *out)
{
    for (int i = 0; i < n; i++) {
        fputs(i % info->per_line == 0 ? indent : " ", out);
        print_value(info, *param_slot((EvalParams *)p, info, first + i), out);
        fputc(',', out);
        if (i % info->per_line == info->per_line - 1 || i == n - 1)
            fputc('\n', out);
    }
}

void params_print_c(const EvalParams *p, FILE *out)
{
    fprintf(out, "const EvalParams DEFAULT_PARAMS = {\n");
    for (int i = 0; i < PARAM_INFO_COUNT; i++) {
        const ParamInfo *info = &PARAM_INFO[i];
        fprintf(out, "    .%s = ", info->name);
        if (info->rows == 0) {
            print_value(info, *param_slot((EvalParams *)p, info, 0), out);
            fprintf(out, ",\n");
        } else if (info->rows == 1) {
            fprintf(out, "{\n");
            print_elements(p, info, 0, info->count, "        ", out);
            fprintf(out, "    },\n");
        } else {
            int per_row = info->count / info->rows;
            fprintf(out, "{\n");
            for (int r = 0; r < info->rows; r++) {
                fprintf(out, "        {\n");
                print_elements(p, info, r * per_row, per_row, "            ", out);
                fprintf(out, "        },\n");
            }
            fprintf(out, "    },\n");
        }
    }
    fprintf(out, "};\n");
}

/* ---- Parsing the same format ---- */

typedef struct {
    const char *s;
    char *err;
    size_t err_size;
} Parser;

static bool parse_fail(Parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool parse_fail(Parser *ps, const char *fmt, ...)
{
    if (ps->err && ps->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err, ps->err_size, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Skips blanks and C comments. */
static void skip_space(Parser *ps)
{
    for (;;) {
        while (isspace((unsigned char)*ps->s))
            ps->s++;
        if (ps->s[0] == '/' && ps->s[1] == '*') {
            const char *end = strstr(ps->s + 2, "*/");
            ps->s = end ? end + 2 : ps->s + strlen(ps->s);
        } else if (ps->s[0] == '/' && ps->s[1] == '/') {
            while (*ps->s && *ps->s != '\n')
                ps->s++;
        } else {
            return;
        }
    }
}

static bool accept(Parser *ps, char c)
{
    skip_space(ps);
    if (*ps->s != c)
        return false;
    ps->s++;
    return true;
}

static bool parse_int(Parser *ps, int *out)
{
    skip_space(ps);
    char *end;
    long v = strtol(ps->s, &end, 10);
    if (end == ps->s)
        return parse_fail(ps, "number expected near \"%.20s\"", ps->s);
    if (v < -32768 || v > 32767)
        return parse_fail(ps, "value %ld out of range", v);
    ps->s = end;
    *out = (int)v;
    return true;
}

/* Reads one value (S(mg, eg) or an int) or a braced list of them, appending to vals. */
static bool parse_values(Parser *ps, ParamKind kind, int32_t *vals, int *n, int max, int depth)
{
    skip_space(ps);
    if (accept(ps, '{')) {
        if (depth > 2)
            return parse_fail(ps, "braces nested too deep");
        while (!accept(ps, '}')) {
            if (!parse_values(ps, kind, vals, n, max, depth + 1))
                return false;
            if (!accept(ps, ',') && (skip_space(ps), *ps->s != '}'))
                return parse_fail(ps, "',' or '}' expected near \"%.20s\"", ps->s);
        }
        return true;
    }
    if (*n >= max)
        return parse_fail(ps, "too many values");
    int mg = 0, eg = 0;
    if (kind == PARAM_SCORE) {
        if (!accept(ps, 'S') || !accept(ps, '('))
            return parse_fail(ps, "S(mg, eg) expected near \"%.20s\"", ps->s);
        if (!parse_int(ps, &mg) || !accept(ps, ',') || !parse_int(ps, &eg) || !accept(ps, ')'))
            return parse_fail(ps, "malformed S(mg, eg) near \"%.20s\"", ps->s);
        vals[(*n)++] = make_score(mg, eg);
    } else {
        if (!parse_int(ps, &mg))
            return false;
        vals[(*n)++] = mg;
    }
    return true;
}

bool params_parse(EvalParams *p, const char *text, char *err, size_t err_size)
{
    Parser ps = { text, err, err_size };
    EvalParams result = *p;
    int32_t vals[SQUARE_NB * PIECE_TYPE_NB];

    skip_space(&ps);
    if (*ps.s != '.') { /* optional "const EvalParams NAME = {" header */
        const char *brace = strchr(ps.s, '{');
        if (!brace)
            return parse_fail(&ps, "no parameter table found");
        ps.s = brace + 1;
    }
    for (;;) {
        skip_space(&ps);
        if (*ps.s == '\0' || *ps.s == '}')
            break;
        if (!accept(&ps, '.'))
            return parse_fail(&ps, "'.field' expected near \"%.20s\"", ps.s);
        const char *name = ps.s;
        while (isalnum((unsigned char)*ps.s) || *ps.s == '_')
            ps.s++;
        size_t len = (size_t)(ps.s - name);
        const ParamInfo *info = NULL;
        for (int i = 0; i < PARAM_INFO_COUNT; i++)
            if (strlen(PARAM_INFO[i].name) == len && !strncmp(PARAM_INFO[i].name, name, len))
                info = &PARAM_INFO[i];
        if (!info)
            return parse_fail(&ps, "unknown parameter \"%.*s\"", (int)(len > 40 ? 40 : len), name);
        if (!accept(&ps, '='))
            return parse_fail(&ps, "'=' expected after %s", info->name);
        int n = 0;
        if (!parse_values(&ps, info->kind, vals, &n, info->count, 0))
            return false;
        if (n != info->count)
            return parse_fail(&ps, "%s needs %d values, got %d", info->name, info->count, n);
        memcpy(param_slot(&result, info, 0), vals, sizeof(int32_t) * (size_t)n);
        if (!accept(&ps, ','))
            break;
    }
    *p = result;
    return true;
}

/* engine.rc reader and lookup (see rcfile.h). */
#include "util/rcfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"
#include "util/textline.h"

#define RC_LINE_MAX 1024
/* More than any settings file needs; what is larger is not an rc file. */
#define RC_FILE_MAX (1024 * 1024)
#define RC_FILE_MAX_TEXT "1 MB"

static void warn(const RcSink *sink, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Length of the valid UTF-8 sequence at s (2..4 bytes), 0 if there is none. */
static int utf8_length(const unsigned char *s)
{
    int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
          : s[0] >= 0xe0                 ? 3
          : s[0] >= 0xc2 && s[0] < 0xe0  ? 2
                                         : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Copies text into out with control characters and stray bytes written as \xNN: a
 * binary file given as engine.rc must not send raw bytes to a terminal or a GUI. */
static void escape_text(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 5 < size;) {
        int len = *p >= 0x80 ? utf8_length(p) : (*p >= 0x20 && *p != 0x7f);
        if (len > 0) {
            memcpy(out + n, p, (size_t)len);
            n += (size_t)len;
            p += len;
        } else {
            n += (size_t)snprintf(out + n, size - n, "\\x%02x", *p++);
        }
    }
    out[n] = '\0';
}

static void warn(const RcSink *sink, const char *fmt, ...)
{
    char msg[RC_LINE_MAX + 256], shown[4 * sizeof msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    escape_text(msg, shown, sizeof shown);
    if (sink && sink->warn)
        sink->warn(sink->warn_ctx, shown);
    else
        fprintf(stderr, "%s\n", shown);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Cuts a trailing comment: '#' at the start or after whitespace, outside double quotes. */
static void strip_comment(char *s)
{
    bool quoted = false;
    for (char *p = s; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == '#' && !quoted && (p == s || isspace((unsigned char)p[-1]))) {
            *p = '\0';
            return;
        }
    }
}

bool rc_key_equal(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '_' || *a == '-')
            a++;
        while (*b == ' ' || *b == '_' || *b == '-')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++, b++;
    }
}

/* Parses one line; returns 0 for nothing to do, 1 when applied, -1 after a warning. */
static int parse_line(char *line, const char *name, int lineno, const RcSink *sink)
{
    strip_comment(line);
    char *s = trim(line);
    if (!*s)
        return 0;
    char *eq = strchr(s, '=');
    if (!eq) {
        warn(sink, "warning: %s:%d: expected 'key = value', skipped: %s", name, lineno, s);
        return -1;
    }
    *eq = '\0';
    char *key = trim(s);
    char *value = trim(eq + 1);
    if (!*key) {
        warn(sink, "warning: %s:%d: missing key before '=', skipped", name, lineno);
        return -1;
    }
    size_t n = strlen(value);
    if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
        value[n - 1] = '\0';
        value++;
    } else if (strchr(value, '"')) {
        warn(sink, "warning: %s:%d: unbalanced quote in value of '%s', skipped", name, lineno, key);
        return -1;
    }
    char err[256] = "";
    if (!sink || !sink->apply || !sink->apply(sink->apply_ctx, key, value, err, sizeof err)) {
        warn(sink, "warning: %s:%d: %s, skipped", name, lineno, err[0] ? err : "rejected");
        return -1;
    }
    if (err[0]) /* accepted with a remark (e.g. a tablebase directory that is missing) */
        warn(sink, "warning: %s:%d: %s", name, lineno, err);
    return 1;
}

RcResult rcfile_read_stream(FILE *in, const char *name, const RcSink *sink)
{
    RcResult r = {0, 0, false};
    char line[RC_LINE_MAX];
    for (int lineno = 1;; lineno++) {
        LineStatus st = line_read(in, line, sizeof line);
        if (st == LINE_END)
            break;
        if (st == LINE_ERROR) {
            /* A directory or a failing disk: not an empty file. */
            warn(sink, "warning: %s:%d: cannot read: %s", name, lineno, strerror(errno));
            r.warnings++;
            r.read_error = true;
            break;
        }
        if (st != LINE_OK) {
            if (st == LINE_TOO_LONG)
                warn(sink, "warning: %s:%d: line longer than %d characters, skipped", name, lineno,
                     RC_LINE_MAX - 1);
            else
                warn(sink, "warning: %s:%d: NUL byte in the line, skipped", name, lineno);
            r.warnings++;
            continue;
        }
        int res = parse_line(line, name, lineno, sink);
        if (res > 0)
            r.applied++;
        else if (res < 0)
            r.warnings++;
    }
    return r;
}

/* /dev/null is the usual "no settings": taken as an empty file. */
static bool is_dev_null(const struct stat *st)
{
    struct stat null_st;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &null_st) == 0 && st->st_dev == null_st.st_dev
           && st->st_ino == null_st.st_ino;
}

bool rcfile_read(const char *path, const RcSink *sink, RcResult *result)
{
    RcResult failed = {0, 1, true};
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f && fd >= 0)
        close(fd);
    if (!f) {
        warn(sink, "warning: cannot open rc file %s: %s", path, strerror(errno));
        if (result)
            *result = failed;
        return false;
    }
    /* Only a regular file of bounded size: /dev/zero or a FIFO would never end. The
     * bound is checked on what is read, since the file may grow after fstat. */
    struct stat st;
    char *text = NULL;
    size_t size = 0;
    const char *why = NULL;
    bool stat_ok = fstat(fileno(f), &st) == 0;
    if (stat_ok && is_dev_null(&st))
        size = 0;
    else if (!stat_ok || !S_ISREG(st.st_mode))
        why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
    else if (st.st_size > RC_FILE_MAX || !(text = malloc(RC_FILE_MAX + 1)))
        why = "larger than " RC_FILE_MAX_TEXT;
    else if ((size = fread(text, 1, RC_FILE_MAX + 1, f)) > RC_FILE_MAX)
        why = "larger than " RC_FILE_MAX_TEXT;
    else if (ferror(f))
        why = strerror(errno);
    fclose(f);
    if (!why && !text && !(text = malloc(1)))
        why = "out of memory";
    FILE *mem = !why ? fmemopen(text, size ? size : 1, "r") : NULL;
    if (!why && !mem)
        why = strerror(errno);
    if (why) {
        warn(sink, "warning: cannot read rc file %s: %s", path, why);
        free(text);
        if (result)
            *result = failed;
        return false;
    }
    if (size == 0)
        fgetc(mem); /* fmemopen wants a size of 1 or more: consume the placeholder byte */
    RcResult r = rcfile_read_stream(mem, path, sink);
    fclose(mem);
    free(text);
    if (result)
        *result = r;
    return !r.read_error;
}

bool executable_dir(char *out, size_t out_size)
{
    return pf_executable_dir(out, out_size);
}

/* A regular file we may read: a directory passes access() and fopen() but reads nothing,
 * and a device (/dev/zero) or FIFO may never end. */
static bool readable(const char *path)
{
    struct stat st;
    if (access(path, R_OK) != 0 || stat(path, &st) != 0)
        return false;
    if (!S_ISREG(st.st_mode) && !is_dev_null(&st)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
        return false;
    }
    return true;
}

static bool try_path(char *out, size_t out_size, const char *dir, const char *rest)
{
    int n = snprintf(out, out_size, "%s/%s", dir, rest);
    return n > 0 && (size_t)n < out_size && readable(out);
}

bool rcfile_locate(const char *explicit_path, char *out, size_t out_size)
{
    if (explicit_path) {
        if (strlen(explicit_path) >= out_size) {
            errno = ENAMETOOLONG;
            return false;
        }
        if (!readable(explicit_path))
            return false;
        strcpy(out, explicit_path);
        return true;
    }
    /* The user's own file first: an installed or shipped copy only gives defaults. */
    char config[4096];
    for (int choice = 0; choice < 2; choice++)
        if (pf_user_config_dir(choice, config, sizeof config)
            && try_path(out, out_size, config, "saavedra/engine.rc"))
            return true;
    return data_file_locate("engine.rc", out, out_size);
}

bool data_file_locate(const char *name, char *out, size_t out_size)
{
    char dir[4096], rest[4200];
    if (!executable_dir(dir, sizeof dir))
        return false;
    if (try_path(out, out_size, dir, name))
        return true;
    /* PREFIX/bin/saavedra finds PREFIX/share/saavedra wherever PREFIX is (also when
     * staged with DESTDIR or moved). */
    int n = snprintf(rest, sizeof rest, "../share/saavedra/%s", name);
    return n > 0 && (size_t)n < sizeof rest && try_path(out, out_size, dir, rest);
}

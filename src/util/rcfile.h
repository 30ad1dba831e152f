/* engine.rc: the configuration file that gives option defaults.
 *
 * Format: one `key = value` per line; `#` starts a comment (whole line or after a value);
 * blank lines are ignored; keys are option names, matched without regard to case, spaces,
 * '_' or '-' (so `move_overhead`, `Move Overhead` and `move-overhead` are one key).
 * A line that is not `key = value`, names no option, or holds a bad value gets a warning
 * naming the file and line number and is skipped; the rest of the file still applies.
 *
 * The parser knows nothing of options or protocols: values go to an apply callback and
 * warnings to a sink callback, so the caller decides where each one ends up (stderr
 * before a protocol is chosen, `info string` in UCI, `#` lines in xboard). */
#ifndef SAAVEDRA_RCFILE_H
#define SAAVEDRA_RCFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Applies one setting; returns false and writes a one-line reason to err when the key
 * or value is rejected. err starts empty; a remark left there on success is passed on
 * as a warning too. */
typedef bool (*RcApplyFn)(void *ctx, const char *key, const char *value,
                          char *err, size_t err_size);
/* Receives one complete warning line (no trailing newline). */
typedef void (*RcWarnFn)(void *ctx, const char *message);

typedef struct {
    RcApplyFn apply;
    void *apply_ctx;
    RcWarnFn warn;      /* NULL: warnings go to stderr */
    void *warn_ctx;
} RcSink;

typedef struct {
    int applied;        /* settings accepted */
    int warnings;       /* lines skipped with a warning */
    bool read_error;    /* the file could not be opened or read to its end (warned) */
} RcResult;

/* Reads settings from an open stream; name is used in warnings. */
RcResult rcfile_read_stream(FILE *in, const char *name, const RcSink *sink);

/* Reads the file at path, which must be a regular file of at most 1 MB. Returns false
 * (after a warning) when it cannot be opened or read to its end. */
bool rcfile_read(const char *path, const RcSink *sink, RcResult *result);

/* Finds the rc file to use: explicit if not NULL (it must exist), else the user's own
 * $XDG_CONFIG_HOME/saavedra/engine.rc, else ~/.config/saavedra/engine.rc, else the
 * shipped one (data_file_locate: beside the executable, then the installed
 * PREFIX/share/saavedra/engine.rc). Writes the path to out and returns true when one exists
 * (a directory does not count: errno is then EISDIR; nor does anything else that is not a
 * regular file, such as /dev/zero or a FIFO: errno is then ENODEV). */
bool rcfile_locate(const char *explicit_path, char *out, size_t out_size);

/* Finds a data file shipped with the engine (engine.rc, later the book): NAME beside the
 * executable (a portable copy, unpacked in one folder), else ../share/saavedra/NAME from
 * the executable's folder (what `make install PREFIX=...` lays out). Writes the path to
 * out; false (errno set) when neither is a readable regular file. */
bool data_file_locate(const char *name, char *out, size_t out_size);

/* Directory holding the running executable (from /proc/self/exe), without a trailing
 * slash; false if unknown. Also used to find the book and learning files. */
bool executable_dir(char *out, size_t out_size);

/* Compares option names loosely: case, spaces, '_' and '-' are ignored. */
bool rc_key_equal(const char *a, const char *b);

#endif

/* Command-line flags (before an optional subcommand):
 *
 *   saavedra [-H SIZE] [-c N] [-t] [-rc FILE] [-l FILE] [--help] [--version] [SUBCOMMAND ARGS...]
 *
 * -H SIZE   hash table size: plain MB ("256"), or with a unit ("256M", "1G", "512K")
 * -c N      search threads
 * -t        trace: diagnostic lines starting with '#' on stdout
 * -rc FILE  read FILE instead of looking for engine.rc
 * -l FILE   protocol log: every line read and written, timestamped
 * Flags win over engine.rc; a GUI's setoption/option wins over both. Everything from the
 * first argument that is not a flag is the subcommand and its arguments. */
#ifndef SAAVEDRA_CMDLINE_H
#define SAAVEDRA_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    long hash_mb;          /* -1: not given */
    int threads;           /* -1: not given */
    bool trace;
    bool help;
    bool version;
    const char *rc_path;   /* NULL: default lookup */
    const char *log_path;  /* NULL: no protocol log */
    int sub_argc;          /* 0: no subcommand (protocol loop) */
    char **sub_argv;       /* sub_argv[0] is the subcommand name */
} CmdLine;

/* Parses argv (argv[0] is the program). On error returns false with a one-line reason. */
bool cmdline_parse(int argc, char **argv, CmdLine *cl, char *err, size_t err_size);

/* Parses a size for -H: "64", "64M", "64MB", "1G", "512K" (rounded up to 1 MB).
 * Returns false for malformed or out-of-range (over 1 TB) text. */
bool parse_size_mb(const char *text, long *mb);

/* Prints the --help text. */
void cmdline_usage(FILE *out, const char *program);

#endif

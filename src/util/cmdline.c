/* Command-line flag parsing (see cmdline.h). */
#include "util/cmdline.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/words.h"

bool parse_size_mb(const char *text, long *mb)
{
    if (!text || !isdigit((unsigned char)*text))
        return false;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno)
        return false;
    unsigned long long kb;
    char unit = (char)toupper((unsigned char)*end);
    const unsigned long long limit_kb = 1024ULL * 1024 * 1024; /* 1 TB */
    if (n > limit_kb)
        return false;
    switch (unit) {
    case '\0': kb = n * 1024; break;
    case 'K': kb = n; end++; break;
    case 'M': kb = n * 1024; end++; break;
    case 'G': kb = n * 1024 * 1024; end++; break;
    default: return false;
    }
    if (unit && (*end == 'B' || *end == 'b'))
        end++;
    if (*end || kb > limit_kb || kb == 0)
        return false;
    *mb = (long)((kb + 1023) / 1024);
    return true;
}

bool cmdline_parse(int argc, char **argv, CmdLine *cl, char *err, size_t err_size)
{
    *cl = (CmdLine){.hash_mb = -1, .threads = -1};
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-H")) {
            if (!next || !parse_size_mb(next, &cl->hash_mb)) {
                snprintf(err, err_size, "-H needs a size such as 256M or 1G, got '%s'",
                         next ? next : "");
                return false;
            }
            i++;
        } else if (!strcmp(a, "-c")) {
            if (!word_to_int(next, 1, 1024, &cl->threads)) {
                snprintf(err, err_size, "-c needs a thread count 1..256, got '%s'",
                         next ? next : "");
                return false;
            }
            i++;
        } else if (!strcmp(a, "-rc") || !strcmp(a, "-l")) {
            if (!next || !*next) {
                snprintf(err, err_size, "%s needs a file name", a);
                return false;
            }
            if (a[1] == 'r')
                cl->rc_path = next;
            else
                cl->log_path = next;
            i++;
        } else if (!strcmp(a, "-t")) {
            cl->trace = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cl->help = true;
        } else if (!strcmp(a, "--version")) {
            cl->version = true;
        } else if (a[0] == '-' && a[1]) {
            snprintf(err, err_size, "unknown flag '%s' (try --help)", a);
            return false;
        } else {
            break;
        }
    }
    cl->sub_argc = argc - i;
    cl->sub_argv = cl->sub_argc > 0 ? argv + i : NULL;
    return true;
}

void cmdline_usage(FILE *out, const char *program)
{
    fprintf(out,
        "usage: %s [flags] [command [args]]\n"
        "\n"
        "Without a command, Saavedra reads protocol commands on stdin: it speaks UCI after\n"
        "'uci' and xboard/WinBoard protocol 2 after 'xboard'; console commands (help, d,\n"
        "eval, eco, perft, bench, test, tbcheck, smpstats, quit) work in every mode.\n"
        "\n"
        "flags (they override engine.rc; a GUI's setoption/option overrides both):\n"
        "  -H SIZE      hash table size: 256 (MB), 256M, 1G\n"
        "  -c N         search threads\n"
        "  -t           trace: diagnostic lines starting with '#'\n"
        "  -rc FILE     read settings from FILE instead of engine.rc\n"
        "  -l FILE      log every protocol line read and written, timestamped\n"
        "  --help       this text\n"
        "  --version    print the version and exit\n"
        "\n"
        "commands:\n"
        "  bench [DEPTH [THREADS [HASH_MB [MODE]]]]  fixed search benchmark, node signature\n"
        "  perft DEPTH [FEN]                   move-generator node counts per root move\n"
        "  test FILE.epd -d DEPTH | -t SECS [-x N] [-N VARS] [-o OUT] [-v]\n"
        "                                      run an EPD test suite\n"
        "  annotate GAMES.pgn [-t SECS | -d DEPTH | -n NODES] [-o OUT.pgn]"
        " [--side white|black|both]\n"
        "           [--from MOVE] [--threads N] [--plot DIR] [--svg]\n"
        "                                      annotate games: evals, ?!/?/?? marks, better lines\n"
        "  eval [FEN]                          static evaluation breakdown\n"
        "  codec FILE.pgn...                   check and time the one-byte move code on games\n"
        "  learn [FILE]                        print the learning file (positions, book results,\n"
        "                                      games as PGN); default saavedra.lrn beside the\n"
        "                                      executable\n"
        "\n"
        "engine.rc is looked up in $XDG_CONFIG_HOME/saavedra/ (or ~/.config/saavedra/), then\n"
        "beside the executable, then in ../share/saavedra/ from it (an installed copy).\n",
        program);
}

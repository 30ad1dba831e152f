/* Console front end and protocol detection: see console.h. */
#include "console.h"

#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "epdtest.h"
#include "evaluate.h"
#include "perft.h"
#include "textline.h"
#include "uci.h"
#include "xboard.h"

typedef int (*ProtocolLoop)(Engine *e, FILE *in, FILE *out, const char *first_line);

/* Commands that select a protocol; the line is handed to that protocol's loop. */
static const struct {
    const char *command;
    ProtocolLoop loop;
} PROTOCOLS[] = {
    { "uci", uci_loop },
    { "xboard", xboard_loop },
};

static void print_help(FILE *out)
{
    fputs("Saavedra console commands:\n"
          "  uci                 switch to the UCI protocol (any UCI command does too)\n"
          "  xboard              switch to the xboard/WinBoard protocol\n"
          "  d                   show the current position\n"
          "  eval                evaluation breakdown of the current position\n"
          "  perft N             move-path count to depth N, per root move\n"
          "  bench [depth [threads [hashMB]]]  search benchmark (node count signature)\n"
          "  test FILE.epd -d DEPTH | -t SECS [-x N] [-N VARS] [-o OUT] [-v]\n"
          "                      run an EPD test suite (Arasan's options)\n"
          "  help                this text\n"
          "  quit                leave\n"
          "Positions are set with the UCI command: position startpos|fen <FEN> [moves ...]\n",
          out);
}

/* First word of line into word (lower level than the protocols' tokenizers). */
static const char *first_word(const char *line, char *word, size_t size)
{
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = 0;
    while (line[n] && line[n] != ' ' && line[n] != '\t' && line[n] != '\n' && line[n] != '\r' && n + 1 < size) {
        word[n] = line[n];
        n++;
    }
    word[n] = '\0';
    return line + n;
}

bool console_command(Engine *e, const char *line, FILE *out)
{
    char cmd[32];
    const char *rest = first_word(line, cmd, sizeof cmd);
    if (!strcmp(cmd, "d")) {
        position_print(engine_position(e), out);
    } else if (!strcmp(cmd, "eval")) {
        eval_print(engine_position(e), out);
    } else if (!strcmp(cmd, "perft")) {
        char *end;
        long depth = strtol(rest, &end, 10);
        if (end == rest || depth < 1 || depth > 20) {
            fprintf(out, "error: usage: perft N (1..20)\n");
            return true;
        }
        static _Thread_local Position copy;
        copy = *engine_position(e);
        perft_divide(&copy, (int)depth, out);
    } else if (!strcmp(cmd, "bench")) {
        char args[3][32];
        char *argv[3];
        int argc = 0;
        while (argc < 3) {
            rest = first_word(rest, args[argc], sizeof args[argc]);
            if (!args[argc][0])
                break;
            argv[argc] = args[argc];
            argc++;
        }
        bench_main(argc, argv, out);
    } else if (!strcmp(cmd, "test")) {
        epdtest_command(e, line, out);
    } else if (!strcmp(cmd, "help")) {
        print_help(out);
    } else
        return false;
    fflush(out);
    return true;
}

int console_loop(Engine *e, FILE *in, FILE *out)
{
    static char line[65536]; /* as long as a UCI line */
    for (;;) {
        LineStatus st = line_read(in, line, sizeof line);
        if (st == LINE_END || st == LINE_ERROR)
            break;
        if (st != LINE_OK) {
            /* Refused whole: a tail read as a new line could be any command. */
            fprintf(out, "error: %s, ignored\n", st == LINE_TOO_LONG ? "line too long" : "line holds a NUL byte");
            fflush(out);
            continue;
        }
        char cmd[32];
        first_word(line, cmd, sizeof cmd);
        if (!cmd[0])
            continue;
        if (!strcmp(cmd, "quit"))
            return 0;
        for (size_t i = 0; i < sizeof PROTOCOLS / sizeof *PROTOCOLS; i++)
            if (!strcmp(cmd, PROTOCOLS[i].command))
                return PROTOCOLS[i].loop(e, in, out, line);
        if (console_command(e, line, out))
            continue;
        /* Anything else is taken as UCI, the default protocol (it reports unknown
         * commands itself). */
        return uci_loop(e, in, out, line);
    }
    return 0;
}

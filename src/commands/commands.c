/* Console commands shared by the front ends: see commands.h. */
#include "commands/commands.h"

#include <stdlib.h>
#include <string.h>

#include "commands/bench.h"
#include "commands/epdtest.h"
#include "commands/smpstats.h"
#include "eval/evaluate.h"
#include "nnue/nnue_eval.h"
#include "tablebase/syzygy.h"
#include "tablebase/tbcheck.h"
#include "util/platform.h"
#include "util/textline.h"
#include "util/words.h"

#define MAX_ARGS 64

static void print_help(Writer *out)
{
    writer_printf(out, "%s",
          "Saavedra console commands:\n"
          "  uci                 switch to the UCI protocol (any UCI command does too)\n"
          "  xboard              switch to the xboard/WinBoard protocol\n"
          "  d                   show the current position\n"
          "  eval                evaluation breakdown of the current position\n"
          "  eco                 opening code and name of the current position and game\n"
          "  perft N             move-path count to depth N, per root move (stop ends it)\n"
          "  bench [depth [threads [hashMB [YBWC|Lazy]]]]  search benchmark (node signature)\n"
          "  smpstats [reset]    parallel-search statistics and search checks since the start"
          " (or reset)\n"
          "  test FILE.epd -d DEPTH | -t SECS [-x N] [-N VARS] [-o OUT] [-v]\n"
          "                      run an EPD test suite (Arasan's options)\n"
          "  tbcheck [full] [PATH]  check the Syzygy tables of SyzygyPath (or PATH) for corrupt"
          " files\n"
          "                      (full: decode every compressed block too)\n"
          "  help                this text\n"
          "  quit                leave\n"
          "Positions are set with the UCI command: position startpos|fen <FEN> [moves ...]\n");
}

/* Whether a read of in would not block (util/platform.h). */
static bool input_waiting(FILE *in)
{
    return pf_input_ready(in);
}

typedef struct {
    CommandInput *input;
    Writer *out;
    char *line; /* PROTOCOL_LINE_MAX bytes: a line typed during the test is read whole */
} Watch;

static bool stop_typed(void *ctx)
{
    Watch *w = ctx;
    CommandInput *in = w->input;
    while (!in->ended && input_waiting(in->in)) {
        char cmd[32];
        /* The protocol loops' one line policy: up to 64 KB, refused whole past that. */
        LineStatus st = iolog_read_line(w->out->log, in->in, w->line, PROTOCOL_LINE_MAX);
        if (st == LINE_END || st == LINE_ERROR) {
            in->ended = true;
            break;
        }
        if (st != LINE_OK) {
            writer_printf(w->out, "error: %s, ignored\n",
                          st == LINE_TOO_LONG ? "line too long" : "line holds a NUL byte");
            continue;
        }
        words_first(w->line, cmd, sizeof cmd);
        if (!strcmp(cmd, "stop") || !strcmp(cmd, "quit")) {
            in->quit |= cmd[0] == 'q';
            return true;
        }
        if (cmd[0]) {
            writer_printf(w->out, "a test is running: '%s' ignored (stop or quit end the test)\n",
                          cmd);
        }
    }
    return false;
}

/* `tbcheck [full] [PATH]`: the table check of SyzygyPath (or PATH) on demand, one line
 * per file and a summary; what is loaded does not change. full decodes every block. */
static void tbcheck_command(Engine *e, int argc, char **argv, Writer *out, char *err,
                            size_t err_size)
{
    bool full = argc > 1 && !strcmp(argv[1], "full");
    if (full)
        argc--, argv++;
    if (argc > 2) {
        snprintf(err, err_size, "usage: tbcheck [full] [PATH]");
        return;
    }
    const char *option_path = option_str(engine_options(e), OPT_SYZYGY_PATH);
    char path[OPTION_STRING_MAX], use[4096], report[2048];
    if (!syzygy_normalise_path(argc == 2 ? argv[1] : option_path, path, sizeof path) || !path[0]) {
        snprintf(err, err_size, "tbcheck: no tablebase path (set SyzygyPath or give one)");
        return;
    }
    TbCheckStats st;
    bool ran = tbcheck_path(path, TBCHECK_DEFAULT | (full ? TBCHECK_FULL : 0), false, use,
                            sizeof use, report, sizeof report, out, &st);
    writer_printf(out,
                  "tbcheck: %d table files in %s, %d left out (%d by the structure check), %.1f ms "
                  "(structure %.1f ms%s)%s\n",
                  st.files, path, st.bad, st.bad_structure, st.elapsed_us / 1000.0,
                  st.structure_us / 1000.0, full ? ", every block decoded" : "",
                  ran ? "" : " (the probe check could not run)");
}

/* Runs a command (argv[0]) once its words are known; err set when it is refused. */
static void run_words(Engine *e, int argc, char **argv, CommandInput *input, Writer *out, char *err,
                      size_t err_size)
{
    const char *cmd = argv[0];
    if (!strcmp(cmd, "perft")) {
        long depth;
        if (argc != 2 || !word_to_long(argv[1], 1, 20, &depth)) {
            snprintf(err, err_size, "usage: perft N (1..20)");
            return;
        }
        /* On the engine's search thread: the protocol loop keeps answering stop,
         * isready and quit while it counts. */
        char why[160];
        if (!engine_perft(e, (int)depth, out, why, sizeof why))
            snprintf(err, err_size, "perft: %s", why);
    } else if (!strcmp(cmd, "tbcheck")) {
        tbcheck_command(e, argc, argv, out, err, err_size);
    } else if (!strcmp(cmd, "bench")) {
        bench_main(argc - 1, argv + 1, out, err, err_size);
    } else if (!strcmp(cmd, "smpstats")) {
        smpstats_command(e, argc, argv, out, err, err_size);
    } else if (!strcmp(cmd, "test")) {
        Watch watch = {input, out, input && input->in ? malloc(PROTOCOL_LINE_MAX) : NULL};
        EpdTestInterrupt stop = {stop_typed, &watch};
        if (input && !input->in && input->stop_requested)
            stop = (EpdTestInterrupt){input->stop_requested, input->ctx};
        bool watched = input && (input->in || input->stop_requested);
        if (input && input->in && !watch.line)
            snprintf(err, err_size, "test: out of memory");
        else
            epdtest_run(e, argc - 1, argv + 1, out, watched ? &stop : NULL, NULL, err, err_size);
        free(watch.line);
    } else if (argc > 1) {
        snprintf(err, err_size, "usage: %s (no arguments)", cmd);
    } else if (!strcmp(cmd, "d")) {
        position_print(engine_position(e), out);
    } else if (!strcmp(cmd, "eval")) {
        eval_print(engine_position(e), out);
        nnue_print(engine_net(e), engine_position(e), out);
    } else if (!strcmp(cmd, "eco")) {
        const EcoEntry *here, *game = engine_opening(e, &here);
        writer_printf(out, "position: %s%s%s\n", here ? here->code : "not in the ECO table",
                      here ? " " : "", here ? here->name : "");
        writer_printf(out, "game: %s%s%s\n", game ? game->code : "no classified position",
                      game ? " " : "", game ? game->name : "");
    } else { /* help */
        print_help(out);
    }
}

bool commands_run_known(const char *line)
{
    static const char *const COMMANDS[] = {"d", "eval", "eco", "perft", "bench", "test", "tbcheck",
                                           "smpstats", "help"};
    char cmd[32];
    words_first(line, cmd, sizeof cmd);
    bool known = false;
    for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++)
        known |= !strcmp(cmd, COMMANDS[i]);
    return known;
}

bool commands_run(Engine *e, const char *line, CommandInput *input, Writer *out, char *err,
                  size_t err_size)
{
    err[0] = '\0';
    char cmd[32];
    words_first(line, cmd, sizeof cmd);
    if (!commands_run_known(line))
        return false;
    if (engine_is_searching(e)) {
        snprintf(err, err_size, "%s: a search or perft is running (send stop first)", cmd);
        return true;
    }
    char *copy = strdup(line);
    char *argv[MAX_ARGS];
    int argc = copy ? words_split(copy, argv, MAX_ARGS) : 0;
    if (!copy)
        snprintf(err, err_size, "%s: out of memory", cmd);
    else if (argc < 0)
        snprintf(err, err_size, "%s: too many arguments", cmd);
    else
        run_words(e, argc, argv, input, out, err, err_size);
    free(copy);
    return true;
}

/* Entry point: command-line subcommands, then the protocol loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/perft.h"
#include "board/position.h"
#include "commands/annotate.h"
#include "commands/bench.h"
#include "commands/codec_cmd.h"
#include "learning/learn_cmd.h"
#include "commands/epdtest.h"
#include "engine/config.h"
#include "engine/engine.h"
#include "eval/evaluate.h"
#include "nnue/network.h"
#include "nnue/nnue_eval.h"
#include "protocol/console.h"
#include "protocol/uci.h"
#include "util/platform.h"
#include "protocol/xboard.h"
#include "search/search.h"
#include "util/cmdline.h"
#include "util/words.h"
#include "util/writer.h"

/* Sets pos from a FEN given as separate command-line words (the start position when
 * there are none); on a bad or over-long FEN prints one line to stderr and returns false. */
static bool position_from_args(Position *pos, int argc, char **argv)
{
    char fen[256] = START_FEN, err[160];
    if (argc > 0) {
        size_t used = 0;
        for (int i = 0; i < argc; i++) {
            int n = snprintf(fen + used, sizeof fen - used, "%s%s", i ? " " : "", argv[i]);
            if (n < 0 || (size_t)n >= sizeof fen - used) {
                fprintf(stderr, "error: FEN too long (more than %zu characters)\n", sizeof fen - 1);
                return false;
            }
            used += (size_t)n;
        }
    }
    if (!position_from_fen(pos, fen, err, sizeof err, NULL)) {
        fprintf(stderr, "error: bad FEN: %s\n", err);
        return false;
    }
    return true;
}

static int cmd_perft(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: saavedra perft DEPTH [FEN]\n");
        return 1;
    }
    int depth;
    if (!word_to_int(argv[0], 1, 30, &depth)) {
        fprintf(stderr, "error: bad perft depth '%s' (want 1..30)\n", argv[0]);
        return 1;
    }
    static Position pos;
    if (!position_from_args(&pos, argc - 1, argv + 1))
        return 1;
    Writer out;
    writer_init(&out, stdout, NULL);
    perft_divide(&pos, depth, &out);
    writer_destroy(&out);
    return 0;
}

/* `eval [FEN]`: static evaluation breakdown of the position (start position by default). */
static int cmd_eval(int argc, char **argv)
{
    static Position pos;
    if (!position_from_args(&pos, argc, argv))
        return 1;
    Writer out;
    writer_init(&out, stdout, NULL);
    eval_print(&pos, &out);
    char err[200];
    Network *net = network_default(err, sizeof err);
    nnue_print(net, &pos, &out);
    network_free(net);
    writer_destroy(&out);
    return 0;
}

/* Standard input without a subcommand: the console until a protocol is asked for, then
 * that protocol's loop, which is handed the line that asked for it. */
static int run_protocol(Engine *engine, FILE *in, Writer *out)
{
    static char first_line[CONSOLE_LINE_MAX];
    switch (console_loop(engine, in, out, first_line, sizeof first_line)) {
    case CONSOLE_UCI:
        return uci_loop(engine, in, out, first_line);
    case CONSOLE_XBOARD:
        return xboard_loop(engine, in, out, first_line);
    case CONSOLE_QUIT:
        break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* A GUI that dies closes our output: writes then fail (and end the session like the
     * end of input does, the game saved) instead of killing the process. */
    pf_ignore_broken_pipe();
    position_init();
    /* Flags first (-H -c -t -rc -l --help --version); then argv[1] is the subcommand. */
    CmdLine cl;
    char cl_err[256];
    if (!cmdline_parse(argc, argv, &cl, cl_err, sizeof cl_err)) {
        fprintf(stderr, "error: %s\n", cl_err);
        return 1;
    }
    if (cl.help) {
        cmdline_usage(stdout, "saavedra");
        return 0;
    }
    if (cl.version) {
        char net[16] = "none";
        uint32_t crc;
        if (network_default_crc(&crc))
            snprintf(net, sizeof net, "%08x", (unsigned)crc);
        printf("%s %s (commit %s, %s, built-in net %s)\n", ENGINE_NAME, ENGINE_VERSION,
               version_commit(), PF_SYSTEM_NAME, net);
        return 0;
    }
    if (cl.sub_argc > 0)
        argv = cl.sub_argv - 1;
    argc = cl.sub_argc + 1;
    if (argc > 1 && !strcmp(argv[1], "perft"))
        return cmd_perft(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "codec"))
        return cmd_codec(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "learn"))
        return cmd_learn(argc - 2, argv + 2);
    eval_init();
    search_init();
    if (argc > 1 && !strcmp(argv[1], "bench")) {
        char err[256];
        Writer out;
        writer_init(&out, stdout, NULL);
        int status = bench_main(argc - 2, argv + 2, &out, err, sizeof err);
        writer_destroy(&out);
        if (err[0])
            fprintf(stderr, "error: %s\n", err);
        return status;
    }
    if (argc > 1 && !strcmp(argv[1], "eval"))
        return cmd_eval(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "test") && strcmp(argv[1], "annotate")) {
        fprintf(stderr, "error: unknown subcommand '%s' (try --help)\n", argv[1]);
        return 1;
    }
    Engine *engine = engine_new();
    if (!engine) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
    }
    Config cfg;
    if (!config_startup(engine, &cl, &cfg)) {
        engine_free(engine);
        return 1;
    }
    int status;
    if (argc > 1 && !strcmp(argv[1], "annotate")) {
        char err[512];
        status = annotate_run(engine, argc - 2, argv + 2, stdout, NULL, NULL, NULL, err,
                              sizeof err) ? 0 : 1;
        if (err[0])
            fprintf(stderr, "error: %s\n", err);
    } else if (argc > 1 && !strcmp(argv[1], "test")) {
        char err[512];
        Writer out;
        writer_init(&out, stdout, NULL);
        status = epdtest_run(engine, argc - 2, argv + 2, &out, NULL, NULL, err, sizeof err) ? 0 : 1;
        writer_destroy(&out);
        if (err[0])
            fprintf(stderr, "error: %s\n", err);
    } else {
        /* Who is answering, for a person at a terminal only: a strict GUI or server
         * reading a pipe may take any line before the handshake as an error. */
        if (isatty(STDOUT_FILENO))
            writer_printf(&cfg.out, "%s %s by %s\n", ENGINE_NAME, ENGINE_VERSION, ENGINE_AUTHOR);
        status = run_protocol(engine, cfg.in, &cfg.out);
    }
    config_shutdown(&cfg);
    engine_free(engine);
    return status;
}

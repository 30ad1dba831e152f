/* Entry point: command-line subcommands, then the protocol loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "codec_cmd.h"
#include "console.h"
#include "engine.h"
#include "evaluate.h"
#include "perft.h"
#include "position.h"
#include "search.h"

static int cmd_perft(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: saavedra perft DEPTH [FEN]\n");
        return 1;
    }
    char *depth_end;
    long depth = strtol(argv[0], &depth_end, 10);
    if (depth_end == argv[0] || *depth_end || depth < 1 || depth > 30) {
        fprintf(stderr, "error: bad perft depth '%s' (want 1..30)\n", argv[0]);
        return 1;
    }
    char fen[256] = START_FEN, err[160];
    if (argc > 1) {
        fen[0] = '\0';
        for (int i = 1; i < argc; i++) {
            strncat(fen, argv[i], sizeof fen - strlen(fen) - 2);
            strcat(fen, " ");
        }
    }
    static Position pos;
    if (!position_from_fen(&pos, fen, err, sizeof err, NULL)) {
        fprintf(stderr, "error: bad FEN: %s\n", err);
        return 1;
    }
    perft_divide(&pos, (int)depth, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    position_init();
    if (argc > 1 && !strcmp(argv[1], "perft"))
        return cmd_perft(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "codec"))
        return cmd_codec(argc - 2, argv + 2);
    eval_init();
    search_init();
    if (argc > 1 && !strcmp(argv[1], "bench"))
        return bench_main(argc - 2, argv + 2, stdout);
    if (argc > 1) {
        fprintf(stderr, "error: unknown subcommand '%s' (try: perft, bench, or none for the protocol loop)\n", argv[1]);
        return 1;
    }
    Engine *engine = engine_new();
    if (!engine) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
    }
    int status = console_loop(engine, stdin, stdout);
    engine_free(engine);
    return status;
}

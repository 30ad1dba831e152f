/* Entry point: command-line subcommands, then the protocol loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perft.h"
#include "position.h"

static int cmd_perft(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: saavedra perft DEPTH [FEN]\n");
        return 1;
    }
    int depth = atoi(argv[0]);
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
    perft_divide(&pos, depth, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    position_init();
    if (argc > 1 && !strcmp(argv[1], "perft"))
        return cmd_perft(argc - 2, argv + 2);
    return 0;
}

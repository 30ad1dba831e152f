/* `saavedra annotate`: goes through the games of a PGN file with the engine and writes
 * them back annotated (annotate_pgn.h), with a summary per side and, on request, an
 * evaluation graph per game (annotate_plot.h):
 *
 *   annotate GAMES.pgn [-t SECONDS | -d DEPTH | -n NODES] [-o OUT.pgn]
 *            [--side white|black|both] [--from MOVE] [--threads N] [--plot DIR] [--svg]
 *
 * -t/-d/-n  the search of each position: seconds (default 1), a depth or nodes
 * -o FILE   write there (a temporary file renamed over it: it may be the input itself),
 *           else to standard output
 * --side    whose moves are analysed (both)
 * --from N  first move number analysed (1)
 * --threads search threads (the engine's Threads otherwise); the hash is the engine's
 * --plot D  DIR/game-N.png per game through gnuplot (--svg: .svg)
 *
 * The whole input is read first. A game the PGN reader cannot follow, one without moves
 * and text outside games are written unchanged (the reader's one line on stderr says
 * why). Progress (game, move, ETA) goes to stderr when it is a terminal. Ctrl-C (or the
 * interrupt hook) stops the search: the games finished are written annotated, the rest
 * unchanged. Book, learning and strength limits are off; options come back afterwards. */
#ifndef SAAVEDRA_ANNOTATE_H
#define SAAVEDRA_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"

typedef struct {
    int games;          /* games in the input */
    int annotated;      /* written annotated */
    int unchanged;      /* written as read (unreadable, no moves, after a stop) */
    int graphs_failed;  /* --plot graphs not drawn (each reason went to stderr) */
    bool interrupted;
    bool no_gnuplot;    /* gnuplot is not in PATH: no graph was tried after the first */
} AnnotateSummary;

/* Runs annotate with argv[0..argc-1] (after the word annotate). out: where the games go
 * without -o. stop (may be NULL) is polled about every 20 ms besides Ctrl-C. false with a
 * one-line reason in err (empty otherwise) for bad arguments, an unreadable input, a
 * --plot folder that cannot be created or an output that cannot be written (nothing is
 * then written), or when a graph could not be drawn (the games are written; the reason
 * of each went to stderr). summary may be NULL. */
bool annotate_run(Engine *e, int argc, char **argv, FILE *out, bool (*stop)(void *ctx),
                  void *stop_ctx, AnnotateSummary *summary, char *err, size_t err_size);

#endif

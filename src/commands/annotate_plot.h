/* annotate --plot: an evaluation graph per game, drawn by gnuplot (Debian package
 * gnuplot-nox) as DIR/game-N.png (or .svg): White's evaluation in pawns, cut to +-10 (a
 * mate counts as 10), over the move number, with the marked moves as points. */
#ifndef SAAVEDRA_ANNOTATE_PLOT_H
#define SAAVEDRA_ANNOTATE_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/annotate_game.h"

/* Creates dir (and the folders above it) when missing, as -o creates its file; false
 * with a reason in err when it cannot be made or is not a folder. */
bool annotate_plot_folder(const char *dir, char *err, size_t err_size);

typedef enum { PLOT_DRAWN, PLOT_FAILED, PLOT_NO_GNUPLOT } PlotStatus;

/* title: a line for the graph's top (White - Black), may be empty. PLOT_FAILED with a
 * reason in err (gnuplot's own first complaint when it has one) when the files cannot
 * be written or gnuplot fails; PLOT_NO_GNUPLOT when gnuplot is not in PATH. */
PlotStatus annotate_plot(const AnnotatedGame *g, const char *dir, long game, bool svg,
                         const char *title, char *err, size_t err_size);

#endif

/* annotate --plot: an evaluation graph per game, drawn by gnuplot (Debian package
 * gnuplot-nox) as DIR/game-N.png (or .svg): White's evaluation in pawns, cut to +-10 (a
 * mate counts as 10), over the move number, with the marked moves as points. */
#ifndef SAAVEDRA_ANNOTATE_PLOT_H
#define SAAVEDRA_ANNOTATE_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/annotate_game.h"

/* title: a line for the graph's top (White - Black), may be empty. false with a reason in
 * err when gnuplot cannot be run or the files cannot be written. */
bool annotate_plot(const AnnotatedGame *g, const char *dir, long game, bool svg, const char *title, char *err,
                   size_t err_size);

#endif

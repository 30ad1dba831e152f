/* What annotate says about a move from the evaluations before and after it: the drop in
 * expected score (WDL model), the mark, the centipawn loss and an accuracy figure, and
 * their sums per side. Pure arithmetic, no search.
 *
 * Scores are internal search scores (centipawns, or mate scores near VALUE_MATE) from
 * the mover's point of view: before = the best the mover had, after = what the move
 * played left him (minus the opponent's score of the next position).
 *
 * Marks, by the drop in expected score (win + draw / 2, 0..1, for the mover):
 *   ?! inaccuracy >= 0.10, ? mistake >= 0.20, ?? blunder >= 0.30.
 * Centipawn loss: before - after, each cut to +-ANNOTATE_CP_CAP (a mate counts as the cap),
 * never below 0. Move accuracy (percent, the formula lichess fits to expected-score
 * loss): 103.1668 * exp(-0.04354 * (E_before - E_after) * 100) - 3.1669, cut to 0..100.
 * A side's accuracy is the mean over its analysed moves. */
#ifndef SAAVEDRA_ANNOTATE_STATS_H
#define SAAVEDRA_ANNOTATE_STATS_H

#include <stdbool.h>

/* The marks are their PGN NAG numbers. */
typedef enum { MARK_NONE = 0, MARK_MISTAKE = 2, MARK_BLUNDER = 4, MARK_INACCURACY = 6 } Mark;

#define ANNOTATE_INACCURACY 0.10
#define ANNOTATE_MISTAKE 0.20
#define ANNOTATE_BLUNDER 0.30
#define ANNOTATE_CP_CAP 1000

typedef struct {
    int moves;              /* analysed moves */
    long cp_loss;           /* sum of centipawn losses */
    int inaccuracies, mistakes, blunders;
    double accuracy;        /* sum of move accuracies (percent) */
} SideSummary;

/* Expected score (0..1) of an internal score for the side it belongs to, with that much
 * material on the board (wdl_material). */
double annotate_expected(int score, int material);
Mark annotate_mark(double drop);
/* The NAG's symbol ("?!", "?", "??"), "" for MARK_NONE. */
const char *annotate_mark_symbol(Mark m);
/* Score cut to +-ANNOTATE_CP_CAP, mates included. */
int annotate_cp(int score);
int annotate_cp_loss(int before, int after);
double annotate_move_accuracy(double expected_before, double expected_after);

/* Adds one analysed move; returns its mark. */
Mark side_summary_add(SideSummary *s, int before, int material_before, int after,
                      int material_after);
/* Average centipawn loss and accuracy (0 when no move was analysed). */
double side_summary_acpl(const SideSummary *s);
double side_summary_accuracy(const SideSummary *s);

#endif

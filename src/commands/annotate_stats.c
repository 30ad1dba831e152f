/* Marks, centipawn loss and accuracy of annotated moves: see annotate_stats.h. */
#include "commands/annotate_stats.h"

#include <math.h>

#include "eval/wdl.h"
#include "search/search.h"

double annotate_expected(int score, int material)
{
    SearchReport r;
    search_score_to_report(score, &r);
    Wdl w = r.is_mate ? wdl_from_mate(r.mate_moves) : wdl_from_cp(r.cp, material);
    return (w.win + w.draw / 2.0) / 1000.0;
}

Mark annotate_mark(double drop)
{
    /* A hair under the threshold counts: the model's per-mille rounding is not a verdict. */
    if (drop >= ANNOTATE_BLUNDER - 1e-9)
        return MARK_BLUNDER;
    if (drop >= ANNOTATE_MISTAKE - 1e-9)
        return MARK_MISTAKE;
    if (drop >= ANNOTATE_INACCURACY - 1e-9)
        return MARK_INACCURACY;
    return MARK_NONE;
}

const char *annotate_mark_symbol(Mark m)
{
    return m == MARK_BLUNDER ? "??" : m == MARK_MISTAKE ? "?" : m == MARK_INACCURACY ? "?!" : "";
}

int annotate_cp(int score)
{
    return score > ANNOTATE_CP_CAP  ? ANNOTATE_CP_CAP
         : score < -ANNOTATE_CP_CAP ? -ANNOTATE_CP_CAP
                                    : score;
}

int annotate_cp_loss(int before, int after)
{
    int loss = annotate_cp(before) - annotate_cp(after);
    return loss > 0 ? loss : 0;
}

double annotate_move_accuracy(double expected_before, double expected_after)
{
    double drop = (expected_before - expected_after) * 100.0;
    if (drop < 0)
        drop = 0;
    double a = 103.1668 * exp(-0.04354 * drop) - 3.1669;
    return a < 0 ? 0 : a > 100 ? 100 : a;
}

Mark side_summary_add(SideSummary *s, int before, int material_before, int after,
                      int material_after)
{
    double eb = annotate_expected(before, material_before);
    double ea = annotate_expected(after, material_after);
    Mark m = annotate_mark(eb - ea);
    s->moves++;
    s->cp_loss += annotate_cp_loss(before, after);
    s->accuracy += annotate_move_accuracy(eb, ea);
    s->inaccuracies += m == MARK_INACCURACY;
    s->mistakes += m == MARK_MISTAKE;
    s->blunders += m == MARK_BLUNDER;
    return m;
}

double side_summary_acpl(const SideSummary *s)
{
    return s->moves ? (double)s->cp_loss / s->moves : 0;
}

double side_summary_accuracy(const SideSummary *s)
{
    return s->moves ? s->accuracy / s->moves : 0;
}

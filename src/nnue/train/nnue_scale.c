/* Slopes of evaluations against the search score (nnue_scale.h). */
#include "nnue/train/nnue_scale.h"

#include <math.h>
#include <stdlib.h>

#include "eval/evaluate.h"

void slope_fit_add(SlopeFit *f, double eval, int score)
{
    if (abs(score) > NNUE_SLOPE_WINDOW)
        return;
    f->es += eval * score;
    f->ss += (double)score * score;
}

double slope_fit_value(const SlopeFit *f)
{
    return f->ss > 0 ? f->es / f->ss : NAN;
}

double nnue_hce_slope(const PosSet *set)
{
    static Position pos;
    PawnTable *pawns = pawn_table_new();
    SlopeFit f = { 0, 0 };
    for (size_t i = 0; i < set->count; i++)
        if (packed_position(&set->pos[i], &pos))
            slope_fit_add(&f, evaluate(&pos, pawns), set->pos[i].score);
    pawn_table_free(pawns);
    return slope_fit_value(&f);
}

double nnue_model_slope(const NnueModel *model, const PosSet *set)
{
    SlopeFit f = { 0, 0 };
    for (size_t i = 0; i < set->count; i++)
        slope_fit_add(&f, nnue_model_eval(model, &set->pos[i]), set->pos[i].score);
    return slope_fit_value(&f);
}

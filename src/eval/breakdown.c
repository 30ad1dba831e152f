/* The `eval` command's table: every term of evaluate_breakdown for both sides, in
 * middlegame and endgame units, then the phase, the scale factor and the result. */
#include "eval/evaluate.h"

#include "eval/endgame.h"

static const char *const TERM_NAMES[TERM_NB] = {
    "Material", "Piece-square", "Bishop pair", "Pawns", "Knights", "Bishops", "Rooks",
    "Mobility", "King safety", "Threats", "Passed pawns", "Tempo"
};

static void print_cp(FILE *out, int v) { fprintf(out, " %6.2f", v / 100.0); }

static void print_pair(FILE *out, int mg, int eg)
{
    print_cp(out, mg);
    print_cp(out, eg);
}

void eval_print(const Position *pos, FILE *out)
{
    EvalBreakdown tr;
    int v = evaluate_breakdown(pos, &tr);
    if (tr.special) {
        fprintf(out, "Specialised endgame evaluation (insufficient material or bare king): %+.2f (White's view)\n",
                tr.value / 100.0);
        fprintf(out, "Final evaluation: %+.2f (side to move), %+.2f (White)\n", v / 100.0, tr.value / 100.0);
        return;
    }
    const char *rule = " --------------+---------------+---------------+--------------\n";
    fprintf(out, "     Term      |     White     |     Black     |     Total\n");
    fprintf(out, "               |    MG     EG  |    MG     EG  |    MG     EG\n");
    fputs(rule, out);
    for (int t = 0; t < TERM_NB; t++) {
        Score wt = tr.terms[t][WHITE], bt = tr.terms[t][BLACK];
        fprintf(out, " %13s |", TERM_NAMES[t]);
        print_pair(out, mg_value(wt), eg_value(wt));
        fprintf(out, " |");
        print_pair(out, mg_value(bt), eg_value(bt));
        fprintf(out, " |");
        print_pair(out, mg_value(wt) - mg_value(bt), eg_value(wt) - eg_value(bt));
        fprintf(out, "\n");
    }
    fputs(rule, out);
    fprintf(out, " %13s |               |               |", "Total");
    print_pair(out, tr.mg, tr.eg);
    fprintf(out, "\n\n");
    fprintf(out, "Phase: %d/%d (middlegame weight), scale factor: %d/%d\n", tr.phase, EVAL_PHASE_MAX, tr.scale,
            SCALE_NORMAL);
    fprintf(out, "Final evaluation: %+.2f (White's view), %+.2f (side to move)\n", tr.value / 100.0, v / 100.0);
}

/* The `eval` command's table: every term of evaluate_breakdown for both sides, in
 * middlegame and endgame units, then the phase, the scale factor and the result. */
#include "eval/evaluate.h"

#include "eval/endgame.h"

static const char *const TERM_NAMES[TERM_NB] = {
    "Material", "Piece-square", "Bishop pair", "Pawns", "Knights", "Bishops", "Rooks",
    "Mobility", "King safety", "Threats", "Passed pawns", "Tempo"
};

static void print_cp(Writer *out, int v) { writer_printf(out, " %6.2f", v / 100.0); }

static void print_pair(Writer *out, int mg, int eg)
{
    print_cp(out, mg);
    print_cp(out, eg);
}

void eval_print(const Position *pos, Writer *out)
{
    EvalBreakdown tr;
    int v = evaluate_breakdown(pos, &tr);
    if (tr.special) {
        writer_printf(out, "Specialised endgame evaluation (insufficient material or bare king): "
                      "%+.2f (White's view)\n",
                      tr.value / 100.0);
        writer_printf(out, "Final evaluation: %+.2f (side to move), %+.2f (White)\n", v / 100.0,
                      tr.value / 100.0);
        return;
    }
    const char *rule = " --------------+---------------+---------------+--------------\n";
    writer_printf(out, "     Term      |     White     |     Black     |     Total\n");
    writer_printf(out, "               |    MG     EG  |    MG     EG  |    MG     EG\n");
    writer_printf(out, "%s", rule);
    for (int t = 0; t < TERM_NB; t++) {
        Score wt = tr.terms[t][WHITE], bt = tr.terms[t][BLACK];
        writer_printf(out, " %13s |", TERM_NAMES[t]);
        print_pair(out, mg_value(wt), eg_value(wt));
        writer_printf(out, " |");
        print_pair(out, mg_value(bt), eg_value(bt));
        writer_printf(out, " |");
        print_pair(out, mg_value(wt) - mg_value(bt), eg_value(wt) - eg_value(bt));
        writer_printf(out, "\n");
    }
    writer_printf(out, "%s", rule);
    writer_printf(out, " %13s |               |               |", "Total");
    print_pair(out, tr.mg, tr.eg);
    writer_printf(out, "\n\n");
    writer_printf(out, "Phase: %d/%d (middlegame weight), scale factor: %d/%d\n", tr.phase,
                  EVAL_PHASE_MAX, tr.scale, SCALE_NORMAL);
    writer_printf(out, "Final evaluation: %+.2f (White's view), %+.2f (side to move)\n",
                  tr.value / 100.0, v / 100.0);
}

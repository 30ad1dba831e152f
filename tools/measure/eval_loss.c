/* eval-loss: how well the hand-written evaluation and a net predict the training target
 * on the held-out games of training data, in the trainer's own loss (docs/nnue.md):
 * (sigmoid(eval / 400) - target)^2 with target = lambda * sigmoid(score / 400) +
 * (1 - lambda) * result. The hand-written evaluation's loss is the bar a net's validation
 * loss must pass before it can be expected to play better; the net is scored as the
 * engine computes it (quantised integers), so the figure includes the rounding, and the
 * scale it was quantised at (nnuetrain -scale): to compare losses, quantise with -scale 1
 * or read the trainer's validation loss.
 *
 *   eval-loss -d DATA [-net FILE] [-valid X] [-lambda X] [-max N]
 *     -d DATA    a folder of *.svt files or one such file (the same split as nnuetrain:
 *                whole games chosen by their index, -valid X of them, default 0.02;
 *                -valid 1: every game, for a held-out folder)
 *     -net FILE  also score this net (the engine's format, docs/nnue-format.md; plain or
 *                HM inputs, as the file says)
 *     -lambda X  as nnuetrain (default 0.75)
 *     -max N     read at most N positions (default: all)
 *
 * Also prints the mean absolute difference between each evaluation and the search score,
 * the mean size of each evaluation (centipawns) and the slope of each evaluation against
 * the search score: the search's margins were tuned on the hand-written evaluation's
 * scale, and a net on another scale prunes differently. Positions are rebuilt from their pieces and side to move: no castling
 * rights or en-passant square, which the hand-written evaluation barely uses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/evaluate.h"
#include "nnue/nnue_eval.h"
#include "nnue/network.h"
#include "nnue/train/nnue_data.h"
#include "nnue/train/nnue_scale.h"
#include "util/args.h"

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

typedef struct {
    double loss, abs_diff, abs_eval;
    SlopeFit fit;
    size_t n;
} Tally;

static void tally(Tally *t, int eval, const PackedPos *p, double target)
{
    double d = sigmoid(eval / (double)NNUE_SCALE) - target;
    t->loss += d * d;
    t->abs_diff += fabs((double)(eval - p->score));
    t->abs_eval += fabs((double)eval);
    slope_fit_add(&t->fit, eval, p->score);
    t->n++;
}

static void report(const char *name, const Tally *t)
{
    double n = t->n ? (double)t->n : NAN;
    printf("%s\n    loss %.7f, mean |eval - search score| %.1f cp, mean |eval| %.1f cp, "
           "eval / search score %.3f (least squares, |score| <= %d)\n",
           name, t->loss / n, t->abs_diff / n, t->abs_eval / n, slope_fit_value(&t->fit), NNUE_SLOPE_WINDOW);
}

int main(int argc, char **argv)
{
    const char *data = NULL, *net_path = NULL;
    double valid = 0.02, lambda = 0.75;
    size_t max = 0;
    const ArgSpec specs[] = {
        { "-d", ARG_TEXT, &data, 0, 0 },          { "-net", ARG_TEXT, &net_path, 0, 0 },
        { "-valid", ARG_REAL, &valid, 1e-6, 1 }, { "-lambda", ARG_REAL, &lambda, 0, 1 },
        { "-max", ARG_SIZE, &max, 0, 0 },
    };
    char err[300];
    bool ok = args_parse_all(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err);
    if (!ok || !data) {
        fprintf(stderr, "eval-loss: %s\nusage: eval-loss -d DATA [-net FILE] [-valid X] [-lambda X] [-max N]\n",
                ok ? "-d DATA is required" : err);
        return 2;
    }
    position_init();
    eval_init();
    Network *net = NULL;
    if (net_path && !(net = network_load(net_path, err, sizeof err))) {
        fprintf(stderr, "eval-loss: %s\n", err);
        return 1;
    }
    NnueData d;
    if (!nnue_data_load(data, valid, max, &d, err, sizeof err)) {
        fprintf(stderr, "eval-loss: %s\n", err);
        return 1;
    }
    static Position pos;
    static int16_t acc[COLOR_NB][NNUE_HIDDEN];
    PawnTable *pawns = pawn_table_new();
    Tally hce = { 0 }, nn = { 0 }, unscaled = { 0 };
    size_t refused = 0;
    for (size_t i = 0; i < d.valid.count; i++) {
        const PackedPos *p = &d.valid.pos[i];
        if (!packed_position(p, &pos)) {
            refused++;
            continue;
        }
        double target = lambda * sigmoid(p->score / (double)NNUE_SCALE) + (1 - lambda) * 0.5 * p->result;
        tally(&hce, evaluate(&pos, pawns), p, target);
        tally(&unscaled, 0, p, target);
        if (net) {
            nnue_refresh(net, &pos, acc);
            tally(&nn, nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc, pos.side, popcount(pieces(&pos))), p,
                  target);
        }
    }
    printf("%zu validation positions of %llu games (lambda %.2f)%s\n", d.valid.count, (unsigned long long)d.games,
           lambda, refused ? ", some refused" : "");
    report("zero (no evaluation)", &unscaled);
    report("hand-written evaluation", &hce);
    if (net) {
        char name[4200];
        snprintf(name, sizeof name, "%s (net %08x, %s inputs)", net_path, net->id,
                 net->mapping == NNUE_MAP_HM ? "HM" : "plain");
        report(name, &nn);
    }
    pawn_table_free(pawns);
    network_free(net);
    nnue_data_free(&d);
    return 0;
}

/* wdlfit: fits the win/draw/loss model of UCI_ShowWDL (eval/wdl.h) to game results.
 *
 *   wdlfit [-net NET] FILE.epd ...   positions labelled c2 "1.0" / "0.5" / "0.0"
 *                                    (tools/programs/pgnselect)
 *
 * Each position is scored by the tuner's quiescence search (src/tune/quiet_leaf.h), from the
 * side to move's point of view (with -net, the net NET evaluates the search's quiet leaf
 * instead, as the engine would: the hand-written evaluation where a side has a bare
 * king), and its material (pawns 1, minors 3, rooks 5, queens 9)
 * counted. The model is Stockfish's form: with x the score in centipawns and t the
 * material / 58, win = 1 / (1 + exp((a - x) / b)), loss = 1 / (1 + exp((a + x) / b)),
 * draw = the rest, where a = A0 + A1 t and b = B0 + B1 t. The four constants are fitted
 * by maximum likelihood (gradient descent) on four positions in five; the fifth is held
 * out and the log-loss there is printed against two baselines (the overall W/D/L
 * frequencies, and the model with a and b fixed at the first iteration's values), with
 * a calibration table by score. Mates and positions in check after the search are
 * skipped. The output ends with the constants to paste into src/eval/wdl.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/position.h"
#include "eval/evaluate.h"
#include "board/position_copy.h"
#include "eval/pawns.h"
#include "eval/wdl.h"
#include "nnue/nnue_eval.h"
#include "nnue/network.h"
#include "tune/quiet_leaf.h"

typedef struct {
    float x, t;
    int8_t result; /* +1 win, 0 draw, -1 loss for the side to move */
} Sample;

static void model(const double *p, double x, double t, double *w, double *d, double *l)
{
    double a = p[0] + p[1] * t, b = p[2] + p[3] * t;
    if (b < 1)
        b = 1;
    *w = 1 / (1 + exp((a - x) / b));
    *l = 1 / (1 + exp((a + x) / b));
    *d = 1 - *w - *l;
    if (*d < 1e-6)
        *d = 1e-6;
}

static double log_loss(const double *p, const Sample *s, int n, int fold, bool held_out)
{
    double sum = 0;
    int count = 0;
    for (int i = 0; i < n; i++) {
        if ((i % 5 == fold) != held_out)
            continue;
        double w, d, l;
        model(p, s[i].x, s[i].t, &w, &d, &l);
        double q = s[i].result > 0 ? w : s[i].result < 0 ? l : d;
        sum -= log(q > 1e-9 ? q : 1e-9);
        count++;
    }
    return count ? sum / count : 0;
}

/* The net's score of pos's quiet leaf (the quiescence search's principal variation played
 * out) from pos's side to move, or the search's own score where the engine would use the
 * hand-written evaluation (a bare king) or there is no quiet leaf. */
static int net_score(const Network *net, QLeafSearch *qs, const Position *pos, int search_score)
{
    static Position leaf;
    static int16_t acc[COLOR_NB][NNUE_HIDDEN];
    position_copy_current(&leaf, pos);
    if (!qleaf_advance(qs, &leaf) || !more_than_one(pieces_c(&leaf, WHITE)) || !more_than_one(pieces_c(&leaf, BLACK)))
        return search_score;
    nnue_refresh(net, &leaf, acc);
    int v = nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc, leaf.side, popcount(pieces(&leaf)));
    return leaf.side == pos->side ? v : -v;
}

int main(int argc, char **argv)
{
    char line[4096], err[160];
    Network *net = NULL;
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "-net")) {
        if (argc < 3) {
            fprintf(stderr, "usage: wdlfit [-net NET] FILE.epd ...\n");
            return 1;
        }
        if (!(net = network_load(argv[2], err, sizeof err))) {
            fprintf(stderr, "wdlfit: %s\n", err);
            return 1;
        }
        first = 3;
    }
    if (argc <= first) {
        fprintf(stderr, "usage: wdlfit [-net NET] FILE.epd ...\n");
        return 1;
    }
    position_init();
    eval_init();
    int cap = 1 << 16, n = 0;
    Sample *s = malloc((size_t)cap * sizeof *s);
    Position *pos = malloc(sizeof *pos);
    QLeafSearch qs = { pawn_table_new(), 0 };
    for (int f = first; f < argc; f++) {
        FILE *in = fopen(argv[f], "r");
        if (!in) {
            fprintf(stderr, "wdlfit: cannot open %s\n", argv[f]);
            return 1;
        }
        while (fgets(line, sizeof line, in)) {
            const char *end;
            const char *c2 = strstr(line, "c2 \"");
            if (!c2 || !position_from_fen(pos, line, err, sizeof err, &end))
                continue;
            double white = atof(c2 + 4);
            Move pv[MAX_PLY];
            int pv_length;
            int score = qleaf_search(&qs, pos, pv, &pv_length);
            if (abs(score) > QLEAF_MATE - 256 || in_check(pos))
                continue;
            if (net)
                score = net_score(net, &qs, pos, score);
            if (n == cap && !(s = realloc(s, (size_t)(cap *= 2) * sizeof *s)))
                return 1;
            double stm = pos->side == WHITE ? white : 1 - white;
            s[n].x = (float)(score < -2000 ? -2000 : score > 2000 ? 2000 : score);
            int m = wdl_material(pos);
            s[n].t = (float)((m < 17 ? 17 : m > 78 ? 78 : m) / 58.0);
            s[n].result = (int8_t)(stm > 0.75 ? 1 : stm < 0.25 ? -1 : 0);
            n++;
        }
        fclose(in);
    }
    if (n < 1000) {
        fprintf(stderr, "wdlfit: only %d positions\n", n);
        return 1;
    }
    double p[4] = { 150, 0, 80, 0 }, start[4];
    memcpy(start, p, sizeof p);
    /* Gradient descent with central differences; the step shrinks when a step fails. */
    double step[4] = { 2, 2, 1, 1 }, loss = log_loss(p, s, n, 0, false);
    for (int it = 0; it < 400; it++) {
        double g[4];
        for (int k = 0; k < 4; k++) {
            double h = 0.5, keep = p[k];
            p[k] = keep + h;
            double up = log_loss(p, s, n, 0, false);
            p[k] = keep - h;
            double down = log_loss(p, s, n, 0, false);
            p[k] = keep;
            g[k] = (up - down) / (2 * h);
        }
        double norm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2] + g[3] * g[3]);
        if (norm < 1e-9)
            break;
        double trial[4];
        for (int k = 0; k < 4; k++)
            trial[k] = p[k] - step[k] * 1000 * g[k];
        double next = log_loss(trial, s, n, 0, false);
        if (next < loss) {
            memcpy(p, trial, sizeof p);
            loss = next;
            for (int k = 0; k < 4; k++)
                step[k] *= 1.2;
        } else
            for (int k = 0; k < 4; k++)
                step[k] *= 0.5;
    }
    int wins = 0, draws = 0;
    for (int i = 0; i < n; i++)
        wins += s[i].result > 0, draws += s[i].result == 0;
    double fw = (double)wins / n, fd = (double)draws / n, fl = 1 - fw - fd, base = 0;
    int held = 0;
    for (int i = 0; i < n; i++)
        if (i % 5 == 0) {
            base -= log(s[i].result > 0 ? fw : s[i].result < 0 ? fl : fd);
            held++;
        }
    printf("positions %d (fit on %d, held out %d); side to move won %.3f, drew %.3f, lost %.3f\n", n,
           n - held, held, fw, fd, fl);
    printf("log-loss on the held-out fifth: model %.4f, shipped model %.4f, first guess %.4f, frequencies only %.4f\n",
           log_loss(p, s, n, 0, true), log_loss(WDL_MODEL, s, n, 0, true), log_loss(start, s, n, 0, true),
           base / held);
    printf("calibration on the held-out fifth (mean predicted vs observed, per mille):\n");
    printf("  score range      count   W pred/obs   D pred/obs   L pred/obs\n");
    static const int EDGES[] = { -2001, -300, -150, -75, -25, 25, 75, 150, 300, 2001 };
    for (int b = 0; b + 1 < (int)(sizeof EDGES / sizeof *EDGES); b++) {
        double pw = 0, pd = 0, pl = 0, ow = 0, od = 0, ol = 0;
        int c = 0;
        for (int i = 0; i < n; i += 5) {
            if (s[i].x < EDGES[b] || s[i].x >= EDGES[b + 1])
                continue;
            double w, d, l;
            model(p, s[i].x, s[i].t, &w, &d, &l);
            pw += w, pd += d, pl += l;
            ow += s[i].result > 0, od += s[i].result == 0, ol += s[i].result < 0;
            c++;
        }
        if (c)
            printf("  %5d..%-5d %9d   %4.0f/%-4.0f    %4.0f/%-4.0f    %4.0f/%-4.0f\n", EDGES[b], EDGES[b + 1] - 1, c,
                   1000 * pw / c, 1000 * ow / c, 1000 * pd / c, 1000 * od / c, 1000 * pl / c, 1000 * ol / c);
    }
    printf("constants: A0 %.1f A1 %.1f B0 %.1f B1 %.1f\n", p[0], p[1], p[2], p[3]);
    free(s);
    free(pos);
    pawn_table_free(qs.pawns);
    network_free(net);
    return 0;
}

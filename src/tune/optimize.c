/* Loss, gradient, K fit and the three optimisers: Adam (Kingma and Ba), AdaGrad (Duchi,
 * Hazan and Singer), and "adaptive": momentum with per-weight gains that grow while the
 * gradient keeps its sign and shrink when it flips (Jacobs' delta-bar-delta rule as
 * taught by Hinton). */
#include "tune/optimize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fork_join.h"

#define LN10 2.302585092994046

double tune_sigmoid(double k, double score)
{
    return 1.0 / (1.0 + pow(10.0, -k * score / 400.0));
}

typedef struct {
    const TuneSet *set;
    const TuneLayout *layout;
    const double *theta;
    double k;
    TuneObjective objective;
    long first, last;
    double *grad;  /* per worker; NULL: no gradient */
    double loss;
} LossWorker;

/* Loss of one position and its derivative by the predicted result s. */
static double point_loss(TuneObjective obj, double s, double r, double *dloss_ds)
{
    const double eps = 1e-12;
    double sc = s < eps ? eps : s > 1 - eps ? 1 - eps : s;
    double msq = (s - r) * (s - r), dmsq = 2 * (s - r);
    double lg = -(r * log(sc) + (1 - r) * log(1 - sc)), dlg = -(r / sc) + (1 - r) / (1 - sc);
    switch (obj) {
    case OBJ_MSQ:
        *dloss_ds = dmsq;
        return msq;
    case OBJ_LOG:
        *dloss_ds = dlg;
        return lg;
    default:
        *dloss_ds = (dmsq + dlg) / 2;
        return (msq + lg) / 2;
    }
}

static void *loss_range(void *arg)
{
    LossWorker *w = arg;
    const TuneSet *set = w->set;
    double sum = 0;
    for (long i = w->first; i < w->last; i++) {
        const TunePos *tp = &set->pos[i];
        double v = tune_eval(tp, set->pool, w->layout, w->theta, NULL, 0);
        double s = tune_sigmoid(w->k, v), dl_ds;
        sum += point_loss(w->objective, s, tp->result, &dl_ds);
        if (w->grad) {
            double ds_dv = s * (1 - s) * w->k * LN10 / 400;
            tune_eval(tp, set->pool, w->layout, w->theta, w->grad, dl_ds * ds_dv);
        }
    }
    w->loss = sum;
    return NULL;
}

double tune_loss(const TuneSet *set, const TuneLayout *layout, const double *theta, double k,
                 TuneObjective objective, double *grad, int threads)
{
    threads = threads < 1 ? 1 : threads > 256 ? 256 : threads;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)layout->count);
    if (set->packed == 0)
        return 0;
    LossWorker w[256];
    /* Each worker sums its own gradient; without memory for them, one thread does all. */
    for (int t = 1; grad && t < threads; t++)
        if (!(w[t].grad = calloc((size_t)layout->count, sizeof(double)))) {
            while (--t >= 1)
                free(w[t].grad);
            threads = 1;
            break;
        }
    long per = (set->packed + threads - 1) / threads;
    for (int t = 0; t < threads; t++) {
        double *g = t == 0 ? grad : grad ? w[t].grad : NULL;
        w[t] = (LossWorker){ set, layout, theta, k, objective, 0, 0, g, 0 };
        w[t].first = t * per < set->packed ? t * per : set->packed;
        w[t].last = (t + 1) * per < set->packed ? (t + 1) * per : set->packed;
    }
    fork_join(loss_range, w, sizeof w[0], threads);
    double loss = w[0].loss;
    for (int t = 1; t < threads; t++) {
        loss += w[t].loss;
        if (w[t].grad) {
            for (int j = 0; j < layout->count; j++)
                grad[j] += w[t].grad[j];
            free(w[t].grad);
        }
    }
    if (grad)
        for (int j = 0; j < layout->count; j++)
            grad[j] /= (double)set->packed;
    return loss / (double)set->packed;
}

double tune_fit_k(const TuneSet *set, const TuneLayout *layout, const double *theta,
                  TuneObjective objective, int threads)
{
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = 0.05, b = 10.0;
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = tune_loss(set, layout, theta, c, objective, NULL, threads);
    double fd = tune_loss(set, layout, theta, d, objective, NULL, threads);
    for (int i = 0; i < 60 && b - a > 1e-6; i++) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = tune_loss(set, layout, theta, c, objective, NULL, threads);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = tune_loss(set, layout, theta, d, objective, NULL, threads);
        }
    }
    return (a + b) / 2;
}

/* ---- Optimisers ---- */

double optimizer_default_rate(TuneOptimizer kind)
{
    return kind == OPT_ADAM ? 1.0 : kind == OPT_ADAGRAD ? 5.0 : 0.5;
}

bool optimizer_init(Optimizer *o, TuneOptimizer kind, int n, double rate)
{
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->n = n;
    o->rate = rate > 0 ? rate : optimizer_default_rate(kind);
    o->m = calloc((size_t)n, sizeof(double));
    o->v = calloc((size_t)n, sizeof(double));
    o->prev = calloc((size_t)n, sizeof(double));
    o->gain = calloc((size_t)n, sizeof(double));
    if (!o->m || !o->v || !o->prev || !o->gain) {
        optimizer_free(o);
        return false;
    }
    for (int i = 0; i < n; i++)
        o->gain[i] = 1.0;
    return true;
}

void optimizer_free(Optimizer *o)
{
    free(o->m);
    free(o->v);
    free(o->prev);
    free(o->gain);
    o->m = o->v = o->prev = o->gain = NULL;
}

void optimizer_step(Optimizer *o, double *theta, const double *g)
{
    o->step++;
    switch (o->kind) {
    case OPT_ADAM: {
        const double b1 = 0.9, b2 = 0.999;
        double c1 = 1 - pow(b1, (double)o->step), c2 = 1 - pow(b2, (double)o->step);
        for (int i = 0; i < o->n; i++) {
            o->m[i] = b1 * o->m[i] + (1 - b1) * g[i];
            o->v[i] = b2 * o->v[i] + (1 - b2) * g[i] * g[i];
            double vhat = o->v[i] / c2;
            if (vhat > 0)
                theta[i] -= o->rate * (o->m[i] / c1) / sqrt(vhat);
        }
        break;
    }
    case OPT_ADAGRAD:
        for (int i = 0; i < o->n; i++) {
            o->v[i] += g[i] * g[i];
            if (o->v[i] > 0)
                theta[i] -= o->rate * g[i] / sqrt(o->v[i]);
        }
        break;
    case OPT_ADAPTIVE: {
        if (o->step == 1) {
            double sum = 0;
            int nonzero = 0;
            for (int i = 0; i < o->n; i++)
                if (g[i] != 0) {
                    sum += g[i] * g[i];
                    nonzero++;
                }
            o->scale = nonzero ? sqrt(sum / nonzero) : 1;
        }
        const double momentum = 0.9;
        for (int i = 0; i < o->n; i++) {
            if (g[i] * o->prev[i] > 0)
                o->gain[i] += 0.05;
            else if (g[i] * o->prev[i] < 0)
                o->gain[i] *= 0.95;
            if (o->gain[i] < 0.01)
                o->gain[i] = 0.01;
            if (o->gain[i] > 100)
                o->gain[i] = 100;
            o->prev[i] = g[i];
            o->m[i] = momentum * o->m[i] - o->rate * o->gain[i] * g[i] / o->scale;
            theta[i] += o->m[i];
        }
        break;
    }
    }
}

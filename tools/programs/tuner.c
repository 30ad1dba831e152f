/* tuner: Texel tuning of every weight in src/eval/params.c (docs/tuning.md).
 *
 *   tuner [options] FILE.epd ...      positions labelled c2 "1.0" / "0.5" / "0.0"
 *     -c N         threads (default 1)
 *     -n N         iterations (default 500)
 *     -i FILE      starting weights: a file written by -x, or a params.c table
 *     -x FILE      write the weights there (default x0), also every 25 iterations
 *     -f FILE      write a complete params.c (the tuned table in the source's template)
 *     -o METHOD    adam (default), adagrad or adaptive
 *     -O OBJECTIVE msq (default), log or msqlog
 *     -R N         recompute the quiet leaves every N iterations (default 0: never)
 *     -d           write the default weights (-x, and -f if given) and stop
 *     -V           check the analytic gradient against finite differences and stop
 *     -K K         use this sigmoid scale instead of fitting it
 *     -l RATE      learning rate (default: adam 1, adagrad 5, adaptive 0.5)
 *     -m N         read at most N positions
 *     -H N         hold out every Nth position (not tuned on; its loss is reported)
 *     -p PREFIXES  tune only the weights whose names start with one of these
 *                  (comma-separated, e.g. piece_value,mobility_); the others stay fixed
 *     -F PREFIXES  never tune these (default mate_; "none" frees them); see tune/weightset.h
 *     --csv FILE   loss curve as CSV (default loss.csv)
 *     --plot FILE  draw the loss curve with gnuplot (.png or .svg)
 *     --template FILE  params.c to take the template from (default: the source tree
 *                  the tuner was built in, ../../../src/eval/params.c from the binary)
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eval/evaluate.h"
#include "tune/optimize.h"
#include "tune/weightfile.h"
#include "tune/weightset.h"
#include "util/args.h"
#include "util/outfile.h"
#include "util/timeutil.h"

typedef struct {
    int threads, iterations, recompute, holdout;
    int max_positions;
    const char *start_path, *x_path, *c_path, *csv_path, *plot_path, *template_path, *prefixes, *frozen;
    TuneOptimizer method;
    TuneObjective objective;
    bool defaults_only, validate;
    double k, rate;
} Args;

static const char *const METHODS[] = { "adam", "adagrad", "adaptive" };
static const char *const OBJECTIVES[] = { "msq", "log", "msqlog" };

static void usage(void)
{
    fprintf(stderr, "usage: tuner [-c N] [-n N] [-i FILE] [-x FILE] [-f FILE] [-o adam|adagrad|adaptive]\n"
                    "             [-O msq|log|msqlog] [-R N] [-d] [-V] [-K K] [-l RATE] [-m N] [-H N] [-p PREFIXES]\n"
                    "             [-F PREFIXES] [--csv FILE] [--plot FILE.png|svg] [--template params.c] FILE.epd ...\n");
}

/* The directory of the running binary, for the default template. */
static bool default_template(char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return (size_t)snprintf(buf, size, "%s/../../../src/eval/params.c", exe) < size;
}

/* The whole params.c for -f: the template with the tuned table. */
static bool write_params_c(const Args *a, const TuneLayout *L, const double *theta, double loss_before,
                           double loss_after, double k)
{
    char path[PATH_MAX];
    if (a->template_path)
        snprintf(path, sizeof path, "%s", a->template_path);
    else if (!default_template(path, sizeof path)) {
        fprintf(stderr, "tuner: cannot locate params.c: give --template\n");
        return false;
    }
    char comment[200];
    snprintf(comment, sizeof comment, "Tuned by tools/tuner (%s, %s, K %.4f): loss %.6f -> %.6f.", METHODS[a->method],
             OBJECTIVES[a->objective], k, loss_before, loss_after);
    return weightfile_write_params_c(path, a->c_path, L, theta, comment);
}

/* ---- Loss curve ---- */

static bool plot(const char *csv, const char *out, bool heldout)
{
    size_t n = strlen(out);
    bool svg = n > 4 && !strcmp(out + n - 4, ".svg");
    /* gnuplot writes into our safely made temporary file, renamed when it is done. */
    OutFile of;
    char why[4400];
    if (!outfile_open(&of, out, why, sizeof why)) {
        fprintf(stderr, "tuner: %s\n", why);
        return false;
    }
    const char *tmp = of.tmp;
    /* A gnuplot that is missing or quits early must not kill us with SIGPIPE. */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        signal(SIGPIPE, old_pipe);
        outfile_abort(&of);
        fprintf(stderr, "tuner: cannot run gnuplot (Debian package gnuplot-nox)\n");
        return false;
    }
    fprintf(g, "set terminal %s size 900,540\n", svg ? "svg" : "pngcairo");
    fprintf(g, "set output '%s'\n", tmp);
    fprintf(g, "set datafile separator ','\nset key autotitle columnhead\n");
    fprintf(g, "set title 'Saavedra tuner: loss by iteration'\nset xlabel 'iteration'\nset ylabel 'loss'\n");
    fprintf(g, "set grid\nplot '%s' using 1:2 with lines lw 2 title 'training loss'", csv);
    if (heldout)
        fprintf(g, ", '' using 1:5 with lines lw 2 title 'held-out loss'");
    fprintf(g, "\n");
    int status = pclose(g);
    signal(SIGPIPE, old_pipe);
    if (status != 0) {
        outfile_abort(&of);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            fprintf(stderr, "tuner: gnuplot not found in PATH: %s not drawn (Debian package gnuplot-nox)\n", out);
        else
            fprintf(stderr, "tuner: gnuplot could not draw %s (its reason above)\n", out);
        return false;
    }
    if (!outfile_commit(&of, why, sizeof why)) {
        fprintf(stderr, "tuner: %s\n", why);
        return false;
    }
    return true;
}

/* ---- Gradient check ---- */

static int validate(const TuneSet *full, const TuneLayout *L, double *theta, double k, TuneObjective obj)
{
    TuneSet sub = *full;
    if (sub.packed > 2000)
        sub.packed = 2000;
    int n = L->count;
    double *g = malloc(sizeof(double) * (size_t)n);
    if (!g)
        return 1;
    /* Integer weights put ties between castling-shelter candidates (a kink of the max)
     * right on theta: move every weight by a different small amount first. */
    for (int i = 0; i < n; i++)
        theta[i] += 0.01 + 0.2 * (double)((i * 7919) % 997) / 997.0;
    tune_loss(&sub, L, theta, k, obj, g, 1);
    double biggest = 0;
    for (int i = 0; i < n; i++)
        biggest = fmax(biggest, fabs(g[i]));
    int bad = 0, checked = 0, worst = -1;
    double worst_err = 0;
    char name[96];
    for (int i = 0; i < n; i++) {
        const double h = 1e-3;
        double save = theta[i];
        theta[i] = save + h;
        double up = tune_loss(&sub, L, theta, k, obj, NULL, 1);
        theta[i] = save - h;
        double down = tune_loss(&sub, L, theta, k, obj, NULL, 1);
        theta[i] = save;
        double fd = (up - down) / (2 * h);
        double err = fabs(fd - g[i]) / (1e-3 * biggest + fabs(fd));
        checked++;
        if (err > worst_err) {
            worst_err = err;
            worst = i;
        }
        if (err > 1e-3) {
            bad++;
            if (bad <= 10)
                printf("  %-28s analytic %+.6e  finite difference %+.6e\n", params_name(i, name, sizeof name),
                       g[i], fd);
        }
    }
    printf("gradient check on %ld positions: %d weights, %d differ by more than 0.1%%", sub.packed, checked, bad);
    if (worst >= 0)
        printf(" (largest relative difference %.2e at %s)", worst_err, params_name(worst, name, sizeof name));
    printf("\n");
    free(g);
    return bad ? 1 : 0;
}

/* ---- Main ---- */

/* Moves every holdout-th packed position to the end of the set and makes two views of
 * it: train (the others) and test (those). holdout 0: test is empty. */
static bool split_set(TuneSet *set, int holdout, TuneSet *train, TuneSet *test)
{
    *train = *test = *set;
    test->packed = 0;
    if (holdout < 2)
        return true;
    TunePos *copy = malloc(sizeof *copy * (size_t)(set->packed ? set->packed : 1));
    if (!copy)
        return false;
    long n_train = 0, n_test = set->packed - set->packed / holdout, j = n_train;
    for (long i = 0; i < set->packed; i++)
        if (i % holdout == holdout - 1)
            copy[n_test++] = set->pos[i];
        else
            copy[j++] = set->pos[i];
    n_train = j;
    memcpy(set->pos, copy, sizeof *copy * (size_t)set->packed);
    free(copy);
    train->packed = n_train;
    test->pos = set->pos + n_train;
    test->packed = set->packed - n_train;
    return true;
}

static int pick(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

static bool parse_args(int argc, char **argv, Args *a, int *first_file)
{
    *a = (Args){ 1, 500, 0, 0, 0, NULL, "x0", NULL, "loss.csv", NULL, NULL, NULL, WEIGHTSET_DEFAULT_FROZEN, OPT_ADAM, OBJ_MSQ, false, false, 0, 0 };
    const char *method = METHODS[OPT_ADAM], *objective = OBJECTIVES[OBJ_MSQ];
    bool help = false;
    const ArgSpec specs[] = {
        { "-d", ARG_SWITCH, &a->defaults_only, 0, 0 },   { "-V", ARG_SWITCH, &a->validate, 0, 0 },
        { "-h", ARG_SWITCH, &help, 0, 0 },               { "--help", ARG_SWITCH, &help, 0, 0 },
        { "-c", ARG_INT, &a->threads, 1, 256 },          { "-n", ARG_INT, &a->iterations, 0, 1e8 },
        { "-R", ARG_INT, &a->recompute, 0, 1e8 },        { "-H", ARG_INT, &a->holdout, 0, 1e8 },
        { "-m", ARG_INT, &a->max_positions, 0, 1e8 },    { "-K", ARG_REAL, &a->k, 1e-9, 1000 },
        { "-l", ARG_REAL, &a->rate, 1e-9, 1000 },        { "-o", ARG_TEXT, &method, 0, 0 },
        { "-O", ARG_TEXT, &objective, 0, 0 },            { "-i", ARG_TEXT, &a->start_path, 0, 0 },
        { "-x", ARG_TEXT, &a->x_path, 0, 0 },            { "-f", ARG_TEXT, &a->c_path, 0, 0 },
        { "--csv", ARG_TEXT, &a->csv_path, 0, 0 },       { "--plot", ARG_TEXT, &a->plot_path, 0, 0 },
        { "-p", ARG_TEXT, &a->prefixes, 0, 0 },          { "-F", ARG_TEXT, &a->frozen, 0, 0 },
        { "--template", ARG_TEXT, &a->template_path, 0, 0 },
    };
    char err[160];
    *first_file = args_parse(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err);
    if (help) {
        usage();
        exit(0);
    }
    if (*first_file < 0) {
        fprintf(stderr, "tuner: %s\n", err);
        return false;
    }
    int m = pick(method, METHODS, 3), o = pick(objective, OBJECTIVES, 3);
    if (m < 0 || o < 0) {
        fprintf(stderr, "tuner: unknown %s %s\n", m < 0 ? "method" : "objective", m < 0 ? method : objective);
        return false;
    }
    a->method = (TuneOptimizer)m;
    a->objective = (TuneObjective)o;
    if (a->holdout == 1)
        a->holdout = 2; /* every position held out would leave nothing to train on */
    return true;
}

/* The run proper; main owns what it allocates, so every exit path frees it. */
typedef struct {
    double *theta, *grad, *rounded;
    WeightSet weights;
    TuneSet set;
    Optimizer opt;
    OutFile csv;
} Run;

static int run(int argc, char **argv, Run *r)
{
    Args a;
    int first_file;
    if (!parse_args(argc, argv, &a, &first_file)) {
        usage();
        return 2;
    }
    eval_init();
    TuneLayout L;
    tune_layout_init(&L);
    double *theta = r->theta = malloc(sizeof(double) * (size_t)L.count);
    double *grad = r->grad = malloc(sizeof(double) * (size_t)L.count);
    if (!theta || !grad) {
        fprintf(stderr, "tuner: out of memory\n");
        return 1;
    }
    tune_theta_from_params(&L, &DEFAULT_PARAMS, theta);
    if (a.start_path && !weightfile_read(a.start_path, &L, theta))
        return 1;
    if (a.defaults_only) {
        bool ok = weightfile_write(a.x_path, &L, theta, 0, 0);
        if (ok && a.c_path)
            ok = write_params_c(&a, &L, theta, 0, 0, 0);
        return ok ? 0 : 1;
    }
    if (first_file >= argc) {
        fprintf(stderr, "tuner: no training file\n");
        usage();
        return 2;
    }
    WeightSet *weights = &r->weights;
    int tuned = weightset_init(weights, &L, a.prefixes, a.frozen);
    if (tuned <= 0) {
        fprintf(stderr, "tuner: %s\n", tuned < 0 ? "out of memory" : "no weight to tune (check -p and -F)");
        return tuned < 0 ? 1 : 2;
    }
    /* Start inside the allowed ranges (a -i file may come from elsewhere). */
    weightset_project(weights, theta);
    const bool tty = isatty(STDERR_FILENO);
    int64_t t0 = time_now_ms();
    TuneSet *set = &r->set;
    for (int i = first_file; i < argc; i++)
        if (!tune_set_read(set, argv[i], a.max_positions, stderr))
            return 1;
    if (set->count == 0) {
        fprintf(stderr, "tuner: no labelled positions\n");
        return 1;
    }
    EvalParams p;
    tune_params_from_theta(&L, theta, &p);
    eval_set_params(&p);
    int64_t t_read = time_now_ms();
    if (!tune_set_build(set, a.threads)) {
        fprintf(stderr, "tuner: out of memory building the leaves\n");
        return 1;
    }
    int64_t t_built = time_now_ms();
    double build_s = (t_built - t_read) / 1000.0;
    fprintf(stderr, "tuner: %ld positions read (%ld bad lines) in %.1f s; %ld quiet leaves (%ld mates dropped), "
                    "%llu nodes, in %.1f s (%.0f positions/s per thread); %zu coefficients (%.1f per position)\n",
            set->count, set->read_errors, (t_read - t0) / 1000.0, set->packed, set->mates,
            (unsigned long long)set->nodes, build_s, set->count / (build_s > 0 ? build_s : 1e-3) / a.threads,
            set->pool_used, set->packed ? (double)set->pool_used / set->packed : 0.0);
    TuneSet train, test; /* views of set: tuned on, held out */
    if (!split_set(set, a.holdout, &train, &test)) {
        fprintf(stderr, "tuner: out of memory\n");
        return 1;
    }

    double k = a.k > 0 ? a.k : tune_fit_k(&train, &L, theta, a.objective, a.threads);
    if (a.validate)
        return validate(&train, &L, theta, k, a.objective);
    double loss0 = tune_loss(&train, &L, theta, k, a.objective, NULL, a.threads);
    double held0 = tune_loss(&test, &L, theta, k, a.objective, NULL, a.threads), held = held0;
    if (test.packed)
        fprintf(stderr, "tuner: %ld positions held out (every %dth), loss %.8f\n", test.packed, a.holdout, held0);
    fprintf(stderr, "tuner: K %.4f%s, start loss %.8f (%s), %s, %d of %d weights, %d iterations, %d thread%s\n",
            k, a.k > 0 ? " (given)" : " (fitted)", loss0, OBJECTIVES[a.objective], METHODS[a.method], tuned, L.count,
            a.iterations, a.threads, a.threads == 1 ? "" : "s");

    OutFile *csv = &r->csv;
    char err[256];
    FILE *cf = outfile_open(csv, a.csv_path, err, sizeof err);
    if (!cf) {
        fprintf(stderr, "tuner: %s\n", err);
        return 1;
    }
    fprintf(cf, "iteration,loss,seconds,recomputed,heldout\n0,%.10f,0.000,0,%.10f\n", loss0, held0);
    Optimizer *opt = &r->opt;
    if (!optimizer_init(opt, a.method, L.count, a.rate)) {
        fprintf(stderr, "tuner: out of memory\n");
        return 1;
    }
    int64_t start = time_now_ms();
    double loss = loss0, eval_seconds = 0;
    long evaluated = 0;
    for (int it = 1; it <= a.iterations; it++) {
        int recomputed = 0;
        if (a.recompute && it > 1 && (it - 1) % a.recompute == 0) {
            tune_params_from_theta(&L, theta, &p);
            eval_set_params(&p);
            if (!tune_set_build(set, a.threads) || !split_set(set, a.holdout, &train, &test)) {
                fprintf(stderr, "tuner: out of memory rebuilding the leaves\n");
                return 1;
            }
            recomputed = 1;
        }
        int64_t t1 = time_now_us();
        tune_loss(&train, &L, theta, k, a.objective, grad, a.threads);
        weightset_mask(weights, grad);
        optimizer_step(opt, theta, grad);
        weightset_project(weights, theta);
        loss = tune_loss(&train, &L, theta, k, a.objective, NULL, a.threads);
        eval_seconds += (time_now_us() - t1) / 1e6;
        evaluated += train.packed;
        held = tune_loss(&test, &L, theta, k, a.objective, NULL, a.threads);
        double elapsed = (time_now_ms() - start) / 1000.0;
        fprintf(cf, "%d,%.10f,%.3f,%d,%.10f\n", it, loss, elapsed, recomputed, held);
        if (tty)
            fprintf(stderr, "\riteration %d/%d  loss %.8f  %.1f s  %.0f positions/s   ", it, a.iterations, loss,
                    elapsed, evaluated / (eval_seconds > 0 ? eval_seconds : 1e-6));
        if (it % 25 == 0)
            weightfile_write(a.x_path, &L, theta, k, loss);
    }
    if (tty)
        fprintf(stderr, "\n");
    bool ok = outfile_commit(csv, err, sizeof err);
    if (!ok)
        fprintf(stderr, "tuner: %s\n", err);
    /* The loss of the weights as they will be used: rounded to integers. */
    double *rounded = r->rounded = malloc(sizeof(double) * (size_t)L.count);
    if (!rounded)
        return 1;
    tune_params_from_theta(&L, theta, &p);
    tune_theta_from_params(&L, &p, rounded);
    double loss_rounded = tune_loss(&train, &L, rounded, k, a.objective, NULL, a.threads);
    if (test.packed)
        fprintf(stderr, "tuner: held-out loss %.8f -> %.8f (%.8f with integer weights)\n", held0, held,
                tune_loss(&test, &L, rounded, k, a.objective, NULL, a.threads));
    fprintf(stderr, "tuner: loss %.8f -> %.8f (%.8f with integer weights) in %d iterations, %.1f s; "
                    "%.0f positions/s per thread (loss and gradient)\n",
            loss0, loss, loss_rounded, a.iterations, (time_now_ms() - start) / 1000.0,
            evaluated / (eval_seconds > 0 ? eval_seconds : 1e-6) / a.threads);
    ok &= weightfile_write(a.x_path, &L, theta, k, loss);
    if (a.c_path)
        ok &= write_params_c(&a, &L, rounded, loss0, loss_rounded, k);
    if (a.plot_path)
        ok &= plot(a.csv_path, a.plot_path, test.packed > 0);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    Run r;
    memset(&r, 0, sizeof r);
    tune_set_init(&r.set);
    int status = run(argc, argv, &r);
    outfile_abort(&r.csv); /* nothing when it was committed */
    optimizer_free(&r.opt);
    tune_set_free(&r.set);
    free(r.rounded);
    weightset_free(&r.weights);
    free(r.theta);
    free(r.grad);
    return status;
}

/* nnuetrain: trains the neural evaluation on training-data files (docs/nnue.md).
 *
 *   nnuetrain -d DATA -o NET.nnue [-epochs N] [-batch N] [-lr X] [-lambda X] [-lambda-end X]
 *             [-wd X] [-best 0|1] [-hm 0|1] [-mirror 0|1] [-scale auto|X] [-c THREADS]
 *             [-valid X] [-max N] [--seed N] [-ckpt FILE] [-resume] [-init NET|builtin]
 *             [--plot FILE]
 *     -d DATA      a folder of *.svt files (tools/datagen) or one such file; several,
 *                  separated by ":", are read in turn (generations of data)
 *     -o NET       the quantised net, written after every epoch (make EVALFILE=NET)
 *     -best N      1: NET is the net of the epoch with the lowest validation loss so far,
 *                  and the last epoch's net goes to NET.last.nnue (NET less its .nnue);
 *                  0: NET is the last epoch's net (default)
 *     -epochs N    passes over the data (default 15)
 *     -batch N     positions per Adam step (default 1024)
 *     -lr X        the first epoch's learning rate, falling as a cosine to X/100 (0.001)
 *     -lambda X    target = X * sigmoid(score/400) + (1-X) * result (default 0.75)
 *     -lambda-end X  lambda goes linearly from -lambda at the first epoch to X at the
 *                  last (default: -lambda throughout); the validation loss is taken at
 *                  X in every epoch, so that epochs compare on the target the run ends on
 *     -wd X        weight decay, decoupled from the gradient (AdamW): every step the
 *                  weights (not the biases) shrink by lr * X of themselves (default 0)
 *     -hm N        1: an HM net: each perspective sees the board mirrored a<->h when its
 *                  king stands on files e-h (docs/nnue.md; a version 2 net file); 0: a
 *                  plain net. Default: plain, or the -init net's mapping (-hm converts
 *                  it), or the checkpoint's with -resume (which -hm may not change)
 *     -mirror N    1: show each training position mirrored a<->h half of the time at
 *                  random (augmentation; default 1), 0: as played. An HM net sees a
 *                  board and its mirror image alike, so the flip is not applied to it
 *     -scale X     multiply the quantised net's output by X; default "auto": the
 *                  hand-written evaluation's slope against the search score over the
 *                  model's, on the validation positions (nnue/train/nnue_scale.h)
 *     -c N         threads (default 2)
 *     -valid X     the share of games held out for the validation loss (default 0.02)
 *     -max N       use at most N positions (default: all)
 *     --seed N     initial weights and shuffling (default 1)
 *     -ckpt FILE   the float model with Adam's state, after every epoch (default NET.ckpt)
 *     -resume      continue from the checkpoint
 *     -init NET    start from a net's weights instead of random ones ("builtin": the
 *                  engine's own), Adam's state at zero: a net refined on new data
 *     --plot FILE  draw training and validation loss by epoch (gnuplot, .png or .svg)
 *
 * A line per epoch (training and validation loss, positions/s, learning rate, lambda)
 * goes to stderr and NET.csv, and a last line names the epoch of the lowest validation
 * loss; on a terminal a progress line shows the epoch's batches. */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board/position.h"
#include "eval/evaluate.h"
#include "nnue/train/nnue_data.h"
#include "nnue/train/nnue_model.h"
#include "nnue/train/nnue_scale.h"
#include "nnue/train/nnue_train.h"
#include "util/args.h"
#include "util/outfile.h"
#include "util/timeutil.h"

typedef struct {
    const char *data, *out, *ckpt, *plot, *init;
    int epochs, threads;
    int hm;             /* -hm: 0, 1, or -1 when not given */
    size_t batch, max;
    float lr, lambda, lambda_end, wd;
    double valid;
    uint64_t seed;
    bool resume;
    bool mirror, best;
    double scale;       /* 0: auto */
} Config;

typedef struct {
    int epoch, epochs;
    int64_t start_ms;
    bool tty;
} Progress;

static void on_progress(void *ctx, size_t done, size_t total, double loss)
{
    Progress *p = ctx;
    if (!p->tty)
        return;
    double s = (time_now_ms() - p->start_ms) / 1000.0;
    double rate = s > 0 ? done / s : 0;
    fprintf(stderr, "\repoch %d/%d: %3.0f%%, %.0fk positions/s, loss %.6f, %.0f s left in the epoch   ",
            p->epoch, p->epochs, 100.0 * done / total, rate / 1000, loss, rate > 0 ? (total - done) / rate : 0);
}

/* The model quantised at scale, read back as the engine would, and written whole to each
 * of paths[0..n) (a temporary file renamed over it: a reader never sees half a net). */
static bool write_net(const NnueModel *model, const char *const *paths, int n, float scale, uint32_t *id)
{
    static Network net;
    static uint8_t bytes[NNUE_FILE_MAX];
    nnue_model_quantize(model, &net, scale);
    size_t size = network_to_bytes(&net, bytes);
    char err[300];
    Network *check = network_from_bytes(bytes, size, err, sizeof err);
    if (!check) {
        fprintf(stderr, "nnuetrain: the quantised net does not read back: %s\n", err);
        return false;
    }
    *id = check->id;
    network_free(check);
    for (int i = 0; i < n; i++)
        if (!outfile_write(paths[i], bytes, size, err, sizeof err)) {
            fprintf(stderr, "nnuetrain: %s\n", err);
            return false;
        }
    return true;
}

static bool plot(const char *csv, const char *out)
{
    size_t n = strlen(out);
    bool svg = n > 4 && !strcmp(out + n - 4, ".svg");
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    /* A gnuplot that is missing or quits early must not kill us with SIGPIPE. */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        signal(SIGPIPE, old_pipe);
        fprintf(stderr, "nnuetrain: cannot run gnuplot (Debian package gnuplot-nox)\n");
        return false;
    }
    fprintf(g, "set terminal %s size 900,540\nset output '%s'\n", svg ? "svg" : "pngcairo", tmp);
    fprintf(g, "set datafile separator ','\nset key autotitle columnhead\n");
    fprintf(g, "set title 'Saavedra net trainer: loss by epoch'\nset xlabel 'epoch'\nset ylabel 'loss'\nset grid\n");
    fprintf(g, "plot '%s' using 1:2 with linespoints lw 2 title 'training loss', "
               "'' using 1:3 with linespoints lw 2 title 'validation loss'\n", csv);
    int status = pclose(g);
    signal(SIGPIPE, old_pipe);
    if (status != 0) {
        remove(tmp);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            fprintf(stderr, "nnuetrain: gnuplot not found in PATH: %s not drawn (Debian package gnuplot-nox)\n", out);
        else
            fprintf(stderr, "nnuetrain: gnuplot could not draw %s (its reason above)\n", out);
        return false;
    }
    if (rename(tmp, out) != 0) {
        fprintf(stderr, "nnuetrain: cannot rename %s to %s: %s\n", tmp, out, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

static const char *const MAPPING_NAME[NNUE_MAP_COUNT] = { "plain", "HM" };

/* The model training starts from: the checkpoint, a net's weights or random ones; its
 * input mapping is -hm's, else the net's or the checkpoint's. */
static bool start_model(NnueModel *model, const Config *cfg, const char *ckpt, char *err, size_t err_size)
{
    if (cfg->resume) {
        if (!nnue_model_load(model, ckpt, err, err_size))
            return false;
        if (cfg->hm >= 0 && model->mapping != (NnueMapping)cfg->hm) {
            snprintf(err, err_size, "%.200s holds a %s net, and -hm %d asks for the other kind", ckpt,
                     MAPPING_NAME[model->mapping], cfg->hm);
            nnue_model_free(model);
            return false;
        }
        return true;
    }
    if (!cfg->init) {
        snprintf(err, err_size, "out of memory");
        if (!nnue_model_init(model, cfg->seed))
            return false;
        model->mapping = cfg->hm == 1 ? NNUE_MAP_HM : NNUE_MAP_PLAIN;
        return true;
    }
    char why[300];
    bool builtin = strcmp(cfg->init, "builtin") == 0;
    Network *net = builtin ? network_default(why, sizeof why) : network_load(cfg->init, why, sizeof why);
    if (!net) {
        snprintf(err, err_size, "-init %s: %s", cfg->init, why);
        return false;
    }
    bool ok = nnue_model_from_network(model, net);
    if (ok) {
        /* A plain net trained with mirroring scores a board and its mirror image nearly
         * alike, so its weights are a fair start for an HM net, and the reverse. */
        if (cfg->hm >= 0)
            model->mapping = (NnueMapping)cfg->hm;
        fprintf(stderr, "nnuetrain: starting from net %08x (%s inputs)%s%s\n", net->id, MAPPING_NAME[net->mapping],
                model->mapping != net->mapping ? ", trained as a net with " : "",
                model->mapping != net->mapping ? (model->mapping == NNUE_MAP_HM ? "HM inputs" : "plain inputs") : "");
    } else
        snprintf(err, err_size, "out of memory");
    network_free(net);
    return ok;
}

/* A resumed -best run goes on choosing against its best epoch only if NET still holds
 * that epoch's net (a run without -best leaves the last epoch's there); otherwise the
 * choice starts again from the next epoch. */
static void check_best_net(NnueModel *model, const char *out)
{
    if (model->best_epoch == 0)
        return;
    char err[300];
    Network *net = network_load(out, err, sizeof err);
    bool same = net && net->id == model->best_id;
    network_free(net);
    if (same)
        return;
    fprintf(stderr, "nnuetrain: %s does not hold epoch %d's net (%08x), the lowest validation loss so far; "
                    "the best epoch is chosen again from the next one\n", out, model->best_epoch, model->best_id);
    model->best_epoch = 0;
    model->best_id = 0;
    model->best_loss = INFINITY;
}

static int usage(const char *reason)
{
    fprintf(stderr, "nnuetrain: %s\n"
                    "usage: nnuetrain -d DATA -o NET.nnue [-epochs N] [-batch N] [-lr X] [-lambda X] [-lambda-end X] "
                    "[-wd X] [-best 0|1] [-hm 0|1] [-mirror 0|1] [-scale auto|X] [-c N] [-valid X] [-max N] "
                    "[--seed N] [-ckpt FILE] [-resume] [-init NET|builtin] [--plot FILE]\n", reason);
    return 2;
}

int main(int argc, char **argv)
{
    Config cfg = { .epochs = 15, .threads = 2, .batch = 1024, .lr = 0.001f, .lambda = 0.75f, .lambda_end = -1,
                   .valid = 0.02, .seed = 1, .mirror = true, .hm = -1 };
    const char *scale_text = "auto";
    int mirror = 1, best = 0;
    const ArgSpec specs[] = {
        { "-d", ARG_TEXT, &cfg.data, 0, 0 },           { "-o", ARG_TEXT, &cfg.out, 0, 0 },
        { "-ckpt", ARG_TEXT, &cfg.ckpt, 0, 0 },        { "--plot", ARG_TEXT, &cfg.plot, 0, 0 },
        { "-epochs", ARG_INT, &cfg.epochs, 1, 100000 }, { "-batch", ARG_SIZE, &cfg.batch, 1, 1e7 },
        { "-lr", ARG_FLOAT, &cfg.lr, 1e-7, 0.5 },      { "-lambda", ARG_FLOAT, &cfg.lambda, 0, 1 },
        { "-lambda-end", ARG_FLOAT, &cfg.lambda_end, 0, 1 }, { "-wd", ARG_FLOAT, &cfg.wd, 0, 1 },
        { "-best", ARG_INT, &best, 0, 1 },              { "-hm", ARG_INT, &cfg.hm, 0, 1 },
        { "-scale", ARG_TEXT, &scale_text, 0, 0 },        { "-mirror", ARG_INT, &mirror, 0, 1 },
        { "-c", ARG_INT, &cfg.threads, 1, 64 },        { "-valid", ARG_REAL, &cfg.valid, 0, 0.5 },
        { "-max", ARG_SIZE, &cfg.max, 0, 0 },          { "--seed", ARG_U64, &cfg.seed, 0, 0 },
        { "-resume", ARG_SWITCH, &cfg.resume, 0, 0 },  { "-init", ARG_TEXT, &cfg.init, 0, 0 },
    };
    char err[400];
    if (!args_parse_all(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err))
        return usage(err);
    cfg.mirror = mirror == 1;
    cfg.best = best == 1;
    if (cfg.lambda_end < 0)
        cfg.lambda_end = cfg.lambda;
    if (strcmp(scale_text, "auto") && !args_real(scale_text, 0.1, 4, &cfg.scale))
        return usage("-scale wants auto or a number from 0.1 to 4");
    if (cfg.resume && cfg.init)
        return usage("-resume and -init exclude each other");
    if (!cfg.data || !cfg.out) {
        fprintf(stderr, "nnuetrain: -d DATA and -o NET are required\n");
        return 2;
    }
    char ckpt[PATH_MAX], csv[PATH_MAX], last[PATH_MAX];
    snprintf(ckpt, sizeof ckpt, "%s", cfg.ckpt ? cfg.ckpt : cfg.out);
    if (!cfg.ckpt)
        strncat(ckpt, ".ckpt", sizeof ckpt - strlen(ckpt) - 1);
    snprintf(csv, sizeof csv, "%s.csv", cfg.out);
    size_t stem = strlen(cfg.out);
    if (stem > 5 && !strcmp(cfg.out + stem - 5, ".nnue"))
        stem -= 5;
    snprintf(last, sizeof last, "%.*s.last.nnue", (int)stem, cfg.out);
    position_init();
    eval_init();

    int64_t t0 = time_now_ms();
    /* The starting point first: a wrong -init or checkpoint is said before the data load. */
    NnueModel model;
    if (!start_model(&model, &cfg, ckpt, err, sizeof err)) {
        fprintf(stderr, "nnuetrain: %s\n", err);
        return 1;
    }
    if (cfg.resume && cfg.best)
        check_best_net(&model, cfg.out);
    NnueData data;
    if (!nnue_data_load(cfg.data, cfg.valid, cfg.max, &data, err, sizeof err)) {
        fprintf(stderr, "nnuetrain: %s\n", err);
        nnue_model_free(&model);
        return 1;
    }
    if (cfg.best && data.valid.count == 0) {
        fprintf(stderr, "nnuetrain: -best 1 chooses by the validation loss, and no game is held out (-valid)\n");
        nnue_model_free(&model);
        nnue_data_free(&data);
        return 1;
    }
    fprintf(stderr, "nnuetrain: %llu games in %llu files: %zu training and %zu validation positions "
                    "(%llu damaged records skipped), read in %.1f s\n",
            (unsigned long long)data.games, (unsigned long long)data.files, data.train.count, data.valid.count,
            (unsigned long long)data.damaged, (time_now_ms() - t0) / 1000.0);

    if (model.mapping == NNUE_MAP_HM)
        fprintf(stderr, "nnuetrain: an HM net (horizontally mirrored inputs)%s\n",
                cfg.mirror ? "; -mirror changes none of its features and is not applied" : "");
    FILE *log = fopen(csv, cfg.resume ? "a" : "w");
    if (log && !cfg.resume)
        fprintf(log, "epoch,training loss,validation loss,positions per second,learning rate,lambda\n");
    double hce_slope = nnue_hce_slope(&data.valid);
    fprintf(stderr, "nnuetrain: the hand-written evaluation's slope against the search score: %.3f\n", hce_slope);
    uint64_t rng = cfg.seed * 0x9E3779B97F4A7C15ULL + (uint64_t)model.epoch;
    Progress prog = { 0, cfg.epochs, 0, isatty(STDERR_FILENO) };
    int status = 0;
    bool plot_failed = false;
    while (model.epoch < cfg.epochs) {
        prog.epoch = model.epoch + 1;
        prog.start_ms = time_now_ms();
        NnueTrainConfig tc = { .threads = cfg.threads,
                               .batch = cfg.batch,
                               .lr = nnue_schedule(cfg.lr, model.epoch, cfg.epochs),
                               .lambda = nnue_lambda_at(cfg.lambda, cfg.lambda_end, model.epoch, cfg.epochs),
                               .wd = cfg.wd,
                               .mirror = cfg.mirror && model.mapping == NNUE_MAP_PLAIN,
                               .progress = on_progress,
                               .ctx = &prog };
        double train = nnue_train_epoch(&model, &data.train, &tc, &rng);
        double secs = (time_now_ms() - prog.start_ms) / 1000.0;
        double valid = nnue_mean_loss(&model, &data.valid, cfg.lambda_end, cfg.threads);
        model.epoch++;
        double rate = secs > 0 ? data.train.count / secs : 0;
        uint32_t id = 0;
        double slope = nnue_model_slope(&model, &data.valid);
        double scale = cfg.scale > 0 ? cfg.scale : isfinite(hce_slope / slope) && slope > 0 ? hce_slope / slope : 1;
        bool better = valid < model.best_loss; /* never with no validation positions (NaN) */
        const char *paths[2] = { cfg.best ? last : cfg.out, cfg.out };
        /* write_net says why itself; the checkpoint's reason is in err. */
        bool net_written = write_net(&model, paths, cfg.best && better ? 2 : 1, (float)scale, &id);
        if (net_written && better) {
            model.best_epoch = model.epoch;
            model.best_id = id;
            model.best_loss = valid;
        }
        bool ok = net_written && nnue_model_save(&model, ckpt, err, sizeof err);
        fprintf(stderr, "%sepoch %d/%d: training loss %.6f, validation loss %.6f, %.0f positions/s "
                        "(%.0f per thread), lr %.6f, lambda %.3f, slope %.3f, scale %.3f, net %08x%s\n",
                prog.tty ? "\r" : "", model.epoch, cfg.epochs, train, valid, rate, rate / cfg.threads, tc.lr,
                tc.lambda, slope, scale, id, better ? ", the lowest validation loss so far" : "");
        if (log) {
            fprintf(log, "%d,%.7f,%.7f,%.0f,%.7f,%.4f\n", model.epoch, train, valid, rate, tc.lr, tc.lambda);
            fflush(log);
        }
        /* A graph that cannot be drawn is said once and makes the exit status 1. */
        if (cfg.plot && !plot_failed && !plot(csv, cfg.plot)) {
            plot_failed = true;
            status = 1;
        }
        if (!ok) {
            if (net_written)
                fprintf(stderr, "nnuetrain: %s\n", err);
            status = 1;
            break;
        }
    }
    if (log)
        fclose(log);
    if (model.best_epoch > 0 && cfg.best)
        fprintf(stderr, "nnuetrain: %s is epoch %d's net (%08x), the lowest validation loss (%.6f); "
                        "the last epoch's net is %s\n",
                cfg.out, model.best_epoch, model.best_id, model.best_loss, last);
    else if (model.best_epoch > 0)
        fprintf(stderr, "nnuetrain: the lowest validation loss (%.6f) came at epoch %d (net %08x)\n",
                model.best_loss, model.best_epoch, model.best_id);
    nnue_model_free(&model);
    nnue_data_free(&data);
    return status;
}

/* Reading labelled EPD and building the packed leaves in parallel. */
#include "tune/dataset.h"

#include <stdlib.h>
#include <string.h>

#include "eval/evaluate.h"
#include "formats/epd.h"
#include "tune/quiet_leaf.h"
#include "util/fork_join.h"

void tune_set_init(TuneSet *set)
{
    memset(set, 0, sizeof *set);
}

void tune_set_free(TuneSet *set)
{
    free(set->text);
    free(set->fen_offset);
    free(set->label);
    free(set->pos);
    free(set->pool);
    memset(set, 0, sizeof *set);
}

bool tune_set_add(TuneSet *set, const char *fen, float label)
{
    size_t n = strlen(fen) + 1;
    if (set->count == set->capacity) {
        long cap = set->capacity ? 2 * set->capacity : 1024;
        size_t *off = realloc(set->fen_offset, sizeof *off * (size_t)cap);
        if (!off)
            return false;
        set->fen_offset = off;
        float *lab = realloc(set->label, sizeof *lab * (size_t)cap);
        if (!lab)
            return false;
        set->label = lab;
        set->capacity = cap;
    }
    if (set->text_used + n > set->text_capacity) {
        size_t cap = set->text_capacity ? 2 * set->text_capacity : 65536;
        while (cap < set->text_used + n)
            cap *= 2;
        char *t = realloc(set->text, cap);
        if (!t)
            return false;
        set->text = t;
        set->text_capacity = cap;
    }
    memcpy(set->text + set->text_used, fen, n);
    set->fen_offset[set->count] = set->text_used;
    set->label[set->count++] = label;
    set->text_used += n;
    return true;
}

bool tune_set_read(TuneSet *set, const char *path, long max_positions, FILE *err_out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(err_out, "tuner: cannot open %s\n", path);
        return false;
    }
    static Position pos;  /* large: not on the stack */
    static EpdRecord rec;
    char line[4096], err[160], fen[128];
    long line_no = 0, bad = 0;
    bool ok = true;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (max_positions && set->count >= max_positions)
            break;
        if (!strchr(line, '\n') && !feof(f)) { /* too long: skip the rest of it */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ;
            if (++bad <= 10)
                fprintf(err_out, "tuner: %s:%ld: line too long, skipped\n", path, line_no);
            continue;
        }
        if (epd_is_blank(line))
            continue;
        const char *result;
        if (!epd_parse(line, &pos, &rec, err, sizeof err)) {
            if (++bad <= 10)
                fprintf(err_out, "tuner: %s:%ld: %s, skipped\n", path, line_no, err);
            continue;
        }
        result = epd_string(&rec, "c2");
        float label = !result ? -1 : !strcmp(result, "1.0") || !strcmp(result, "1") ? 1.0f
                    : !strcmp(result, "0.5") ? 0.5f
                    : !strcmp(result, "0.0") || !strcmp(result, "0") ? 0.0f : -1;
        if (label < 0) {
            if (++bad <= 10)
                fprintf(err_out, "tuner: %s:%ld: no c2 result (1.0, 0.5 or 0.0), skipped\n", path,
                        line_no);
            continue;
        }
        position_to_fen(&pos, fen);
        if (!tune_set_add(set, fen, label)) {
            fprintf(err_out, "tuner: out of memory after %ld positions\n", set->count);
            ok = false;
            break;
        }
    }
    if (ferror(f)) {
        fprintf(err_out, "tuner: error reading %s\n", path);
        ok = false;
    }
    if (bad > 10)
        fprintf(err_out, "tuner: %s: %ld bad lines in all\n", path, bad);
    set->read_errors += bad;
    fclose(f);
    return ok;
}

/* ---- Building the leaves ---- */

typedef struct {
    TuneSet *set;
    long first, last;
    TunePos *pos;        /* this worker's packed positions, in input order */
    long packed, mates;
    TuneCoef *pool;
    size_t pool_used, pool_capacity;
    uint64_t nodes;
    bool failed;
} Worker;

static void *build_range(void *arg)
{
    Worker *w = arg;
    TuneSet *set = w->set;
    Position *pos = malloc(sizeof *pos);
    EvalCoeffs *trace = malloc(sizeof *trace);
    QLeafSearch qs = { pawn_table_new(), 0 };
    w->pos = malloc(sizeof *w->pos * (size_t)(w->last - w->first + 1));
    if (!pos || !trace || !qs.pawns || !w->pos) {
        w->failed = true;
        goto done;
    }
    char err[160];
    for (long i = w->first; i < w->last; i++) {
        if (!position_from_fen(pos, set->text + set->fen_offset[i], err, sizeof err, NULL)
            || !qleaf_advance(&qs, pos)) {
            w->mates++;
            continue;
        }
        evaluate_traced(pos, trace);
        size_t need = tune_pack_size(trace);
        if (w->pool_used + need > w->pool_capacity) {
            size_t cap = w->pool_capacity ? 2 * w->pool_capacity : 1 << 20;
            while (cap < w->pool_used + need)
                cap *= 2;
            TuneCoef *p = realloc(w->pool, sizeof *p * cap);
            if (!p) {
                w->failed = true;
                goto done;
            }
            w->pool = p;
            w->pool_capacity = cap;
        }
        tune_pack(trace, set->label[i], &w->pos[w->packed++], w->pool, (uint32_t)w->pool_used);
        w->pool_used += need;
    }
done:
    w->nodes = qs.nodes;
    pawn_table_free(qs.pawns);
    free(trace);
    free(pos);
    return NULL;
}

bool tune_set_build(TuneSet *set, int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > 256)
        threads = 256;
    Worker workers[256];
    memset(workers, 0, sizeof workers);
    long per = (set->count + threads - 1) / threads;
    for (int t = 0; t < threads; t++) {
        workers[t].set = set;
        workers[t].first = t * per < set->count ? t * per : set->count;
        workers[t].last = (t + 1) * per < set->count ? (t + 1) * per : set->count;
    }
    fork_join(build_range, workers, sizeof workers[0], threads);

    /* Concatenate, rebasing each worker's coefficient offsets. */
    bool ok = true;
    long packed = 0;
    size_t pool = 0;
    for (int t = 0; t < threads; t++) {
        ok &= !workers[t].failed;
        packed += workers[t].packed;
        pool += workers[t].pool_used;
    }
    if (pool > UINT32_MAX)
        ok = false; /* offsets are 32-bit: split the set */
    free(set->pos);
    free(set->pool);
    set->pos = ok ? malloc(sizeof *set->pos * (size_t)(packed ? packed : 1)) : NULL;
    set->pool = ok ? malloc(sizeof *set->pool * (pool ? pool : 1)) : NULL;
    set->packed = 0;
    set->pool_used = 0;
    set->mates = 0;
    set->nodes = 0;
    if (!set->pos || !set->pool)
        ok = false;
    for (int t = 0; t < threads; t++) {
        Worker *w = &workers[t];
        if (ok) {
            for (long i = 0; i < w->packed; i++) {
                set->pos[set->packed] = w->pos[i];
                set->pos[set->packed++].start += (uint32_t)set->pool_used;
            }
            if (w->pool_used)
                memcpy(set->pool + set->pool_used, w->pool, sizeof *w->pool * w->pool_used);
            set->pool_used += w->pool_used;
        }
        set->mates += w->mates;
        set->nodes += w->nodes;
        free(w->pos);
        free(w->pool);
    }
    return ok;
}

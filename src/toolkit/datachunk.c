/* The files of one generator run: the plan made from the folder, and the writer that
 * appends a file one durable game at a time (datachunk.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolkit/datachunk.h"
#include "toolkit/datafolder.h"
#include "util/outfile.h"

#include "util/platform.h"

uint32_t dataplan_chunk_games(const DataPlan *plan, uint64_t c)
{
    uint64_t first = c * plan->spec.chunk, left = plan->spec.games - first;
    return (uint32_t)(left < plan->spec.chunk ? left : plan->spec.chunk);
}

uint64_t dataplan_chunk_first(const DataPlan *plan, uint64_t c) { return c * plan->spec.chunk; }

static void chunk_name(const DataRunSpec *spec, uint64_t first, bool part, char *out, size_t size)
{
    snprintf(out, size, "s%" PRIu64 "-%09" PRIu64 ".svt%s", spec->seed, first, part ? ".part" : "");
}

/* The file index of name when it is one of this run's files (.svt or .svt.part). */
static bool run_file(DataPlan *plan, const char *name, uint64_t *c, bool *part)
{
    uint64_t seed, first;
    int end = 0;
    if (sscanf(name, "s%" SCNu64 "-%" SCNu64 "%n", &seed, &first, &end) != 2
        || seed != plan->spec.seed)
        return false;
    if (!strcmp(name + end, ".svt"))
        *part = false;
    else if (!strcmp(name + end, ".svt.part"))
        *part = true;
    else
        return false;
    if (first % plan->spec.chunk || first >= plan->spec.games) {
        fprintf(stderr, "datagen: %s/%s is not a file of this run's layout (%u games a file); "
                "left as it is\n",
                plan->spec.dir, name, plan->spec.chunk);
        plan->foreign++;
        return false;
    }
    *c = first / plan->spec.chunk;
    return true;
}

static bool header_fits(const DataPlan *plan, const TrainHeader *h, uint64_t c)
{
    return h->nodes == plan->spec.nodes && h->seed == plan->spec.seed
        && h->first_game == dataplan_chunk_first(plan, c)
        && h->games == dataplan_chunk_games(plan, c) && h->eval_id == plan->spec.eval_id;
}

static bool set_aside(DataPlan *plan, const char *name, const char *why, char *err, size_t err_size)
{
    fprintf(stderr, "datagen: %s/%s: %s; moved to %s/\n", plan->spec.dir, name, why,
            DATAFOLDER_DAMAGED);
    plan->set_aside++;
    return datafolder_set_aside(plan->spec.dir, name, err, err_size);
}

/* A whole file of the run's name: kept, or set aside to be played again. */
static bool plan_file(DataPlan *plan, const char *name, uint64_t c, char *err, size_t err_size)
{
    char path[4200], why[200];
    DataFileInfo info;
    snprintf(path, sizeof path, "%s/%s", plan->spec.dir, name);
    DataFileStatus st = datafile_check(path, &info, why, sizeof why);
    if (st != DATAFILE_WHOLE)
        return set_aside(plan, name, why, err, err_size);
    if (!header_fits(plan, &info.header, c)) {
        /* Not damaged, another run's: never overwritten, never counted as this run's. */
        fprintf(stderr,
                "datagen: %s was made with other settings (%u nodes, %u games, net %08x); "
                "left as it is\n",
                path, info.header.nodes, info.header.games, info.header.eval_id);
        plan->foreign++;
    } else {
        plan->positions_done += info.positions;
        plan->whole_files++;
    }
    plan->done[c] = dataplan_chunk_games(plan, c);   /* its games are not played again */
    return true;
}

/* A .part: resumed from its last whole game, finished when it holds them all. */
static bool plan_part(DataPlan *plan, const char *name, uint64_t c, char *err, size_t err_size)
{
    char path[4200], why[200];
    DataFileInfo info;
    snprintf(path, sizeof path, "%s/%s", plan->spec.dir, name);
    if (plan->done[c])
        return set_aside(plan, name, "a leftover beside the whole file", err, err_size);
    datafile_check(path, &info, why, sizeof why);
    if (!info.header_ok || !header_fits(plan, &info.header, c))
        return set_aside(plan, name, info.header_ok ? "made with other settings" : why, err,
                         err_size);
    plan->done[c] = info.games;
    plan->resume_bytes[c] = info.whole_bytes;
    plan->positions_done += info.positions;
    plan->resumed_files++;
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool dataplan_make(DataPlan *plan, const DataRunSpec *spec, char *err, size_t err_size)
{
    memset(plan, 0, sizeof *plan);
    plan->spec = *spec;
    plan->chunks = (spec->games + spec->chunk - 1) / spec->chunk;
    plan->done = calloc(plan->chunks, sizeof *plan->done);
    plan->resume_bytes = calloc(plan->chunks, sizeof *plan->resume_bytes);
    DIR *d = opendir(spec->dir);
    if (!plan->done || !plan->resume_bytes || !d) {
        snprintf(err, err_size, d ? "out of memory" : "cannot read the folder %s", spec->dir);
        if (d)
            closedir(d);
        dataplan_free(plan);
        return false;
    }
    /* Names first: the folder changes as files are set aside. */
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(d))) {
        if (strstr(e->d_name, ".tmp-")) {   /* a temporary file of outfile_write */
            char base[4200];
            snprintf(base, sizeof base, "%s/%.*s", spec->dir,
                     (int)(strstr(e->d_name, ".tmp-") - e->d_name), e->d_name);
            outfile_remove_stale(base);
            continue;
        }
        if (e->d_name[0] != 's')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 256;
            char **grown = realloc(names, cap * sizeof *names);
            ok = grown != NULL;
            names = grown ? grown : names;
        }
        if (ok && !(names[count++] = strdup(e->d_name)))
            ok = false;
    }
    closedir(d);
    if (names)
        qsort(names, count, sizeof *names, by_name);   /* FILE.svt before FILE.svt.part */
    for (size_t i = 0; ok && i < count; i++) {
        uint64_t c;
        bool part;
        if (names[i] && run_file(plan, names[i], &c, &part))
            ok = part ? plan_part(plan, names[i], c, err, err_size)
                      : plan_file(plan, names[i], c, err, err_size);
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    if (!ok) {
        if (!err[0])
            snprintf(err, err_size, "out of memory");
        dataplan_free(plan);
        return false;
    }
    for (uint64_t c = 0; c < plan->chunks; c++)
        plan->games_done += plan->done[c];
    return true;
}

void dataplan_free(DataPlan *plan)
{
    free(plan->done);
    free(plan->resume_bytes);
    plan->done = NULL;
    plan->resume_bytes = NULL;
}

bool chunk_writer_open(ChunkWriter *w, const DataPlan *plan, uint64_t c, char *err, size_t err_size)
{
    char name[128];
    memset(w, 0, sizeof *w);
    chunk_name(&plan->spec, dataplan_chunk_first(plan, c), false, name, sizeof name);
    snprintf(w->path, sizeof w->path, "%s/%s", plan->spec.dir, name);
    snprintf(w->part, sizeof w->part, "%s.part", w->path);
    w->games = dataplan_chunk_games(plan, c);
    w->written = plan->done[c];
    bool resume = plan->resume_bytes[c] != 0;
    int fd = open(w->part, resume ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0 || (resume && (ftruncate(fd, (off_t)plan->resume_bytes[c]) != 0
                              || lseek(fd, 0, SEEK_END) != (off_t)plan->resume_bytes[c]))) {
        snprintf(err, err_size, "cannot write %s: %s", w->part, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    if (!(w->f = fdopen(fd, "wb"))) {
        close(fd);
        snprintf(err, err_size, "cannot write %s", w->part);
        return false;
    }
    if (!resume) {
        TrainHeader h = { plan->spec.nodes, plan->spec.seed, dataplan_chunk_first(plan, c),
                          w->games, plan->spec.eval_id };
        uint8_t head[TRAIN_HEADER_SIZE];
        train_header_encode(&h, head);
        if (!chunk_writer_append(w, head, sizeof head, err, err_size)) {
            chunk_writer_close(w);
            return false;
        }
        outfile_sync_dir(w->part);
    }
    return true;
}

bool chunk_writer_append(ChunkWriter *w, const uint8_t *record, size_t size, char *err,
                         size_t err_size)
{
    if (fwrite(record, 1, size, w->f) != size || fflush(w->f) != 0 || fsync(fileno(w->f)) != 0) {
        snprintf(err, err_size, "cannot write %s: %s", w->part, strerror(errno));
        return false;
    }
    return true;
}

bool chunk_writer_finish(ChunkWriter *w, char *err, size_t err_size)
{
    int closed = fclose(w->f);
    w->f = NULL;
    if (closed != 0 || rename(w->part, w->path) != 0) {
        snprintf(err, err_size, "cannot finish %s: %s", w->path, strerror(errno));
        return false;
    }
    outfile_sync_dir(w->path);
    return true;
}

void chunk_writer_close(ChunkWriter *w)
{
    if (w->f)
        fclose(w->f);
    w->f = NULL;
}

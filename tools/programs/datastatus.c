/* datastatus: what the training-data folders hold (make nnue-status).
 *
 *   datastatus [--folders] [DIR ...]
 *     Without DIR: the data root ($SAAVEDRA_DATA, else $XDG_DATA_HOME/saavedra/data,
 *     else ~/.local/share/saavedra/data). A DIR that holds data files is one folder;
 *     otherwise each of its subfolders that does is (one per generation).
 *     --folders: only those folders' paths, on one line joined by ':', the form
 *     nnuetrain -d takes (make nnue-train trains on every generation this way).
 *
 * For each folder, a line per seed, net and node count found: files, games, the games
 * missing from the span they cover, training positions; then files cut short (.part,
 * with their whole games) and files that fail the check (header and every record's
 * CRC-32, counts: the check a run makes before it trusts a file), the files set aside
 * in damaged/, and the last run's rate from datagen-run.txt. Exit status 1 when a file
 * fails its check or a folder cannot be read. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "toolkit/datafolder.h"

#define GROUPS_MAX 64

typedef struct {
    uint64_t seed;
    uint32_t eval_id, nodes;
    uint64_t files, games, positions, partial_files, partial_games, last_game, first_game;
} Group;

typedef struct {
    Group groups[GROUPS_MAX];
    int count;
    uint64_t damaged, set_aside;
} Folder;

static Group *group_of(Folder *f, const TrainHeader *h)
{
    for (int i = 0; i < f->count; i++)
        if (f->groups[i].seed == h->seed && f->groups[i].eval_id == h->eval_id && f->groups[i].nodes == h->nodes)
            return &f->groups[i];
    if (f->count == GROUPS_MAX)
        return NULL;
    Group *g = &f->groups[f->count++];
    memset(g, 0, sizeof *g);
    g->seed = h->seed;
    g->eval_id = h->eval_id;
    g->nodes = h->nodes;
    g->first_game = UINT64_MAX;
    return g;
}

static bool is_data_name(const char *name, bool *part)
{
    size_t n = strlen(name);
    *part = n > 9 && !strcmp(name + n - 9, ".svt.part");
    return *part || (n > 4 && !strcmp(name + n - 4, ".svt"));
}

/* Thousands separated by commas, into one of a few rotating buffers. */
static const char *num(uint64_t v)
{
    static char bufs[8][32];
    static int next;
    char *out = bufs[next++ & 7], digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    return out;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The data files in dir, sorted; NULL when it cannot be read. */
static char **data_names(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    bool part;
    *count = 0;
    while ((e = readdir(d))) {
        if (!is_data_name(e->d_name, &part))
            continue;
        if (*count == cap) {
            cap = cap ? 2 * cap : 256;
            char **grown = realloc(names, (cap + 1) * sizeof *names);
            if (!grown)
                break;
            names = grown;
        }
        if (!(names[*count] = strdup(e->d_name)))
            break;
        ++*count;
    }
    closedir(d);
    if (!names)
        names = calloc(1, sizeof *names);
    if (names && *count)
        qsort(names, *count, sizeof *names, by_name);
    return names;
}

static void print_run(const char *dir)
{
    DataRun r;
    if (!datafolder_read_run(dir, &r))
        return;
    char when[32] = "?";
    time_t t = (time_t)r.started;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
    double rate = r.seconds > 0 ? r.positions / r.seconds : 0, cpu = r.cpu_seconds > 0 ? r.positions / r.cpu_seconds : 0;
    printf("  last run: %s, seed %" PRIu64 ", %" PRIu64 " nodes, %d threads, commit %s: %s files, %s games, %s positions "
           "in %.0f s: %.0f positions/s, %.2f M an hour, %.0f per CPU second\n",
           when, r.seed, r.nodes, r.threads, r.version, num(r.files), num(r.games), num(r.positions), r.seconds,
           rate, rate * 3600 / 1e6, cpu);
}

/* Reports one folder; false when a file fails its check. */
static bool report_folder(const char *dir, char **names, size_t count, uint64_t totals[2])
{
    Folder f;
    memset(&f, 0, sizeof f);
    bool ok = true;
    printf("%s\n", dir);
    for (size_t i = 0; i < count; i++) {
        char path[4200], why[200];
        bool part;
        DataFileInfo info;
        is_data_name(names[i], &part);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        DataFileStatus st = datafile_check(path, &info, why, sizeof why);
        /* A .part counts up to its last whole game, as the next run keeps it. */
        Group *g = info.header_ok ? group_of(&f, &info.header) : NULL;
        if (!g || (!part && st != DATAFILE_WHOLE)) {
            printf("  fails its check: %s: %s\n", names[i], g || !info.header_ok ? why : "too many kinds of data");
            f.damaged++;
            ok = false;
            continue;
        }
        if (part) {
            g->partial_files++;
            g->partial_games += info.games;
        } else {
            g->files++;
            g->games += info.games;
        }
        g->positions += info.positions;
        if (info.header.first_game < g->first_game)
            g->first_game = info.header.first_game;
        if (info.header.first_game + info.header.games > g->last_game)
            g->last_game = info.header.first_game + info.header.games;
    }
    char aside[4200];
    snprintf(aside, sizeof aside, "%s/%s", dir, DATAFOLDER_DAMAGED);
    DIR *d = opendir(aside);
    for (struct dirent *e; d && (e = readdir(d));)
        f.set_aside += e->d_name[0] != '.';
    if (d)
        closedir(d);
    for (int i = 0; i < f.count; i++) {
        const Group *g = &f.groups[i];
        uint64_t span = g->last_game - g->first_game, missing = span - g->games - g->partial_games;
        char net[16];
        snprintf(net, sizeof net, g->eval_id ? "net %08" PRIx32 : "hand-written", g->eval_id);
        printf("  seed %" PRIu64 ", %s, %" PRIu32 " nodes: %s files, %s games (%s..%s, %s missing), %s positions\n",
               g->seed, net, g->nodes, num(g->files), num(g->games), num(g->first_game), num(g->last_game - 1),
               num(missing), num(g->positions));
        if (g->partial_files)
            printf("    %s files cut short (.part) with %s whole games: the next run resumes them\n",
                   num(g->partial_files), num(g->partial_games));
        totals[0] += g->games + g->partial_games;
        totals[1] += g->positions;
    }
    if (f.set_aside)
        printf("  %s files set aside in %s/\n", num(f.set_aside), aside);
    print_run(dir);
    return ok;
}

/* With --folders: the folder's path, after a ':' unless it is the first. */
static void list_folder(const char *dir, int *folders)
{
    printf("%s%s", *folders ? ":" : "", dir);
    ++*folders;
}

/* dir itself when it holds data files, else each subfolder that does: reported, or
 * listed when list is set. */
static bool status(const char *dir, uint64_t totals[2], int *folders, bool list)
{
    size_t count;
    char **names = data_names(dir, &count);
    if (!names) {
        fprintf(stderr, "datastatus: cannot read %s\n", dir);
        return false;
    }
    bool ok = true;
    if (count && list) {
        list_folder(dir, folders);
    } else if (count) {
        ok = report_folder(dir, names, count, totals);
        ++*folders;
    } else {
        DIR *d = opendir(dir);
        char **subs = NULL;
        size_t n = 0;
        for (struct dirent *e; d && (e = readdir(d));) {
            char sub[4200];
            struct stat st;
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
            if (e->d_name[0] == '.' || stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
                continue;
            char **grown = realloc(subs, (n + 1) * sizeof *subs);
            if (!grown || !(grown[n] = strdup(sub))) {
                subs = grown ? grown : subs;
                break;
            }
            subs = grown;
            n++;
        }
        if (d)
            closedir(d);
        if (subs)
            qsort(subs, n, sizeof *subs, by_name);
        for (size_t i = 0; i < n; i++) {
            size_t c;
            char **sub_names = data_names(subs[i], &c);
            if (sub_names && c && list) {
                list_folder(subs[i], folders);
            } else if (sub_names && c) {
                ok &= report_folder(subs[i], sub_names, c, totals);
                ++*folders;
            }
            for (size_t j = 0; sub_names && j < c; j++)
                free(sub_names[j]);
            free(sub_names);
            free(subs[i]);
        }
        free(subs);
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return ok;
}

int main(int argc, char **argv)
{
    char root[4096], err[256];
    bool list = argc > 1 && !strcmp(argv[1], "--folders");
    int first = list ? 2 : 1;
    if (argc > first && argv[first][0] == '-') {
        fprintf(stderr, "usage: datastatus [--folders] [DIR ...]\n");
        return 2;
    }
    if (argc == first && !datafolder_root(root, sizeof root, err, sizeof err)) {
        fprintf(stderr, "datastatus: %s\n", err);
        return 2;
    }
    uint64_t totals[2] = { 0, 0 };
    int folders = 0;
    bool ok = true;
    for (int i = first; i < argc; i++)
        ok &= status(argv[i], totals, &folders, list);
    if (argc == first)
        ok &= status(root, totals, &folders, list);
    if (list) {
        if (!folders)
            fprintf(stderr, "datastatus: no folder with training data\n");
        printf("\n");
        return ok && folders ? 0 : 1;
    }
    printf("%d folders, %s games, %s training positions\n", folders, num(totals[0]),
           num(totals[1]));
    return ok ? 0 : 1;
}

/* The training-data folder: root, generation names, file checks, set-aside, lock and the
 * run record (datafolder.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolkit/datafolder.h"
#include "util/outfile.h"

#include "util/platform.h"

bool datafolder_root(char *out, size_t size, char *err, size_t err_size)
{
    const char *own = getenv("SAAVEDRA_DATA"), *xdg = getenv("XDG_DATA_HOME"),
               *home = getenv("HOME");
    int n;
    if (own && own[0])
        n = snprintf(out, size, "%s", own);
    else if (xdg && xdg[0] == '/')   /* the XDG rule: a relative value is ignored */
        n = snprintf(out, size, "%s/saavedra/data", xdg);
    else if (home && home[0])
        n = snprintf(out, size, "%s/.local/share/saavedra/data", home);
    else {
        snprintf(err, err_size, "no data folder: give -o DIR or set SAAVEDRA_DATA");
        return false;
    }
    if (n < 0 || (size_t)n >= size) {
        snprintf(err, err_size, "the data folder's name is too long");
        return false;
    }
    return true;
}

void datafolder_generation(uint32_t eval_id, uint64_t nodes, char *out, size_t size)
{
    if (eval_id)
        snprintf(out, size, "net-%08" PRIx32 "-n%" PRIu64, eval_id, nodes);
    else
        snprintf(out, size, "hce-n%" PRIu64, nodes);
}

/* Reads exactly n bytes; false at the end of the file or on an error. */
static bool read_all(FILE *f, uint8_t *buf, size_t n, size_t *got)
{
    *got = fread(buf, 1, n, f);
    return *got == n;
}

DataFileStatus datafile_check(const char *path, DataFileInfo *info, char *err, size_t err_size)
{
    memset(info, 0, sizeof *info);
    /* O_NONBLOCK: a FIFO under a data file's name must not hang the run. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, fd < 0 ? "cannot read it (%s)" : "not a regular file",
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        return DATAFILE_DAMAGED;
    }
    FILE *f = fdopen(fd, "rb");
    static _Thread_local uint8_t record[TRAIN_RECORD_MAX];
    static _Thread_local TrainGame game;
    size_t got;
    if (!f || !read_all(f, record, TRAIN_HEADER_SIZE, &got)
        || !train_header_decode(record, &info->header, err, err_size)) {
        if (f && got < TRAIN_HEADER_SIZE)
            snprintf(err, err_size, "header cut short (%zu bytes)", got);
        if (f)
            fclose(f);
        else
            close(fd);
        return DATAFILE_DAMAGED;
    }
    info->header_ok = true;
    info->whole_bytes = TRAIN_HEADER_SIZE;
    DataFileStatus status = DATAFILE_WHOLE;
    for (;;) {
        if (!read_all(f, record, 2, &got)) {
            if (got == 0 && info->games == info->header.games)
                break;                                  /* the end, where it should be */
            status = DATAFILE_PARTIAL;
            snprintf(err, err_size, got ? "a game cut short after %u" : "%u of %u games",
                     info->games, info->header.games);
            break;
        }
        if (info->games == info->header.games) {
            status = DATAFILE_DAMAGED;
            snprintf(err, err_size, "bytes after its %u games", info->games);
            break;
        }
        size_t len = record[0] | (size_t)record[1] << 8;
        if (2 + len > sizeof record) {
            status = DATAFILE_DAMAGED;
            snprintf(err, err_size, "game %u: a record length of %zu", info->games, len);
            break;
        }
        if (!read_all(f, record + 2, len, &got)) {
            status = DATAFILE_PARTIAL;
            snprintf(err, err_size, "a game cut short after %u", info->games);
            break;
        }
        size_t used;
        char why[128];
        if (train_game_decode(record, 2 + len, &game, &used, why, sizeof why) != TRAIN_OK) {
            status = DATAFILE_DAMAGED;
            snprintf(err, err_size, "game %u: %s", info->games, why);
            break;
        }
        for (int i = game.first_scored; i < game.plies; i++)
            info->positions += game.scores[i] != TRAIN_NO_SCORE;
        info->games++;
        info->whole_bytes += used;
    }
    if (ferror(f)) {
        status = DATAFILE_DAMAGED;
        snprintf(err, err_size, "read error");
    }
    fclose(f);
    return status;
}

bool datafolder_set_aside(const char *folder, const char *name, char *err, size_t err_size)
{
    char from[4096], dir[4096], to[4200];
    snprintf(from, sizeof from, "%s/%s", folder, name);
    snprintf(dir, sizeof dir, "%s/%s", folder, DATAFOLDER_DAMAGED);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, err_size, "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    struct stat st;
    snprintf(to, sizeof to, "%s/%s", dir, name);
    for (int i = 1; lstat(to, &st) == 0 && i < 1000; i++)
        snprintf(to, sizeof to, "%s/%s.%d", dir, name, i);
    if (rename(from, to) != 0) {
        snprintf(err, err_size, "cannot move %s to %s: %s", from, to, strerror(errno));
        return false;
    }
    outfile_sync_dir(from);
    outfile_sync_dir(to);
    return true;
}

int datafolder_lock(const char *folder, char *err, size_t err_size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", folder, DATAFOLDER_LOCK);
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(err, err_size,
                 errno == EWOULDBLOCK ? "another run is writing %s" : "cannot lock %s", folder);
        close(fd);
        return -1;
    }
    return fd;
}

bool datafolder_write_run(const char *folder, const DataRun *r, char *err, size_t err_size)
{
    char path[4200], text[1024];
    snprintf(path, sizeof path, "%s/%s", folder, DATAFOLDER_RUN);
    int n = snprintf(text, sizeof text,
                     "seed %" PRIu64 "\nnodes %" PRIu64 "\nnet %08" PRIx32
                     "\nthreads %d\ngames_total %" PRIu64 "\nstarted %" PRId64
                     "\nseconds %.1f\ncpu_seconds %.1f\ngames %" PRIu64 "\npositions %" PRIu64
                     "\nfiles %" PRIu64 "\nversion %s\n",
                     r->seed, r->nodes, r->eval_id, r->threads, r->games_total, r->started,
                     r->seconds, r->cpu_seconds, r->games, r->positions, r->files, r->version);
    return outfile_write(path, text, (size_t)n, err, err_size);
}

bool datafolder_read_run(const char *folder, DataRun *r)
{
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/%s", folder, DATAFOLDER_RUN);
    memset(r, 0, sizeof *r);
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 4096) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return false;
    }
    int fields = 0;
    while (fgets(line, sizeof line, f)) {
        char key[32];
        char value[128];
        if (sscanf(line, "%31s %127s", key, value) != 2)
            continue;
        fields++;
        if (!strcmp(key, "seed"))
            r->seed = strtoull(value, NULL, 10);
        else if (!strcmp(key, "nodes"))
            r->nodes = strtoull(value, NULL, 10);
        else if (!strcmp(key, "net"))
            r->eval_id = (uint32_t)strtoul(value, NULL, 16);
        else if (!strcmp(key, "threads"))
            r->threads = atoi(value);
        else if (!strcmp(key, "games_total"))
            r->games_total = strtoull(value, NULL, 10);
        else if (!strcmp(key, "started"))
            r->started = strtoll(value, NULL, 10);
        else if (!strcmp(key, "seconds"))
            r->seconds = strtod(value, NULL);
        else if (!strcmp(key, "cpu_seconds"))
            r->cpu_seconds = strtod(value, NULL);
        else if (!strcmp(key, "games"))
            r->games = strtoull(value, NULL, 10);
        else if (!strcmp(key, "positions"))
            r->positions = strtoull(value, NULL, 10);
        else if (!strcmp(key, "files"))
            r->files = strtoull(value, NULL, 10);
        else if (!strcmp(key, "version"))
            snprintf(r->version, sizeof r->version, "%.63s", value);
        else
            fields--;
    }
    fclose(f);
    return fields >= 10;
}

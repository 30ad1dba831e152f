/* The training-data folder (docs/training-data.md): where the generator's files live, how
 * a file is checked before a run trusts it, and what a run leaves behind about itself.
 *
 * Data outlive the work tree: the default root is outside any checkout ($SAAVEDRA_DATA,
 * else $XDG_DATA_HOME/saavedra/data, else ~/.local/share/saavedra/data), with one folder
 * per generation, named after what played the games and how deep ("net-b235d597-n5000",
 * "hce-n5000"). In a folder:
 *   sS-FIRST.svt         a whole file: header, then every game it announces;
 *   sS-FIRST.svt.part    a file being written, one fsync()ed game at a time; a killed run
 *                        leaves it with its whole games in front and at most a torn one;
 *   damaged/             files a run found damaged, set aside rather than deleted;
 *   datagen.lock         held (flock) by the run writing the folder;
 *   datagen-run.txt      the last run's settings and rate, rewritten after every file. */
#ifndef SAAVEDRA_DATAFOLDER_H
#define SAAVEDRA_DATAFOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/traindata.h"

#define DATAFOLDER_LOCK "datagen.lock"
#define DATAFOLDER_RUN "datagen-run.txt"
#define DATAFOLDER_DAMAGED "damaged"

/* The data root into out; false (with err) when no variable names one. */
bool datafolder_root(char *out, size_t size, char *err, size_t err_size);
/* The generation's folder name: "net-XXXXXXXX-nN" for a net's games, "hce-nN" for the
 * hand-written evaluation's. */
void datafolder_generation(uint32_t eval_id, uint64_t nodes, char *out, size_t size);

/* What a file holds, as far as it is whole. */
typedef struct {
    TrainHeader header;
    bool header_ok;
    uint32_t games;        /* whole games, in order from the first */
    uint64_t positions;    /* their training positions */
    uint64_t whole_bytes;  /* header and whole games: where a resumed append goes */
} DataFileInfo;

typedef enum {
    DATAFILE_WHOLE,      /* the header's games and nothing after them */
    DATAFILE_PARTIAL,    /* whole games, then nothing or a torn one: fewer than announced */
    DATAFILE_DAMAGED     /* a bad header, a damaged record, or bytes after the last game */
} DataFileStatus;

/* Reads and checks the whole file (header and record checksums, counts); err says what
 * is wrong with a file that is not whole. */
DataFileStatus datafile_check(const char *path, DataFileInfo *info, char *err, size_t err_size);

/* Moves folder/name into folder/damaged/ (a new name when one is there already); false
 * (with err) when it cannot. */
bool datafolder_set_aside(const char *folder, const char *name, char *err, size_t err_size);

/* An exclusive lock on the folder for the life of the process: returns its descriptor,
 * or -1 with err (another run holds it, or the lock file cannot be made). */
int datafolder_lock(const char *folder, char *err, size_t err_size);

/* One run of the generator, as datagen-run.txt records it. */
typedef struct {
    uint64_t seed, nodes, games_total;
    uint32_t eval_id;
    int threads;
    int64_t started;           /* Unix time */
    double seconds, cpu_seconds;
    uint64_t games, positions, files;   /* made by this run */
    char version[64];
} DataRun;

bool datafolder_write_run(const char *folder, const DataRun *run, char *err, size_t err_size);
/* false when the folder has no readable run record */
bool datafolder_read_run(const char *folder, DataRun *run);

#endif

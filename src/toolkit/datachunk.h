/* The files of one generator run (datagen): which of its files are whole, which were cut
 * short and where they resume, and the writer that appends a file one game at a time.
 *
 * The run's games 0..games-1 of one seed go into files of chunk games each,
 * sSEED-FIRST.svt (datafolder.h). A file is written as FILE.part: the header, then each
 * game as it is played, flushed and fsync()ed, so a killed run loses at most the games
 * being played; the finished file is renamed to its name. Before a run plays anything,
 * the plan checks every file of the run in full: a whole file is kept, a damaged one (or
 * one cut short under its final name) is set aside in damaged/ and played again, a .part
 * is kept up to its last whole game and continued from there. Game g depends on the seed
 * and g alone, so a resumed file has the bytes an uninterrupted run would have written. */
#ifndef SAAVEDRA_DATACHUNK_H
#define SAAVEDRA_DATACHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/traindata.h"

typedef struct {
    const char *dir;
    uint64_t seed, games;      /* games 0..games-1 of the seed */
    uint32_t chunk;            /* games per file */
    uint32_t nodes, eval_id;   /* must match a file's header for it to count as this run's */
} DataRunSpec;

typedef struct {
    DataRunSpec spec;
    uint64_t chunks;
    uint32_t *done;            /* per file: whole games already on disk */
    uint64_t *resume_bytes;    /* per file: where the .part's whole games end (0: none) */
    uint64_t games_done, positions_done;
    uint64_t whole_files, resumed_files, set_aside, foreign;
} DataPlan;

/* Checks the folder against the run (messages on stderr, one line each); false (with
 * err) when the plan cannot be made (memory, an unreadable folder, a file that cannot be
 * set aside). */
bool dataplan_make(DataPlan *plan, const DataRunSpec *spec, char *err, size_t err_size);
void dataplan_free(DataPlan *plan);

/* Games in file c, and the index of its first game. */
uint32_t dataplan_chunk_games(const DataPlan *plan, uint64_t c);
uint64_t dataplan_chunk_first(const DataPlan *plan, uint64_t c);

typedef struct {
    FILE *f;
    char part[4200], path[4096];
    uint32_t games, written;
} ChunkWriter;

/* Opens file c for its next game: a new .part with its header, or the kept .part cut
 * back to its last whole game. */
bool chunk_writer_open(ChunkWriter *w, const DataPlan *plan, uint64_t c, char *err,
                       size_t err_size);
/* Appends one encoded game and makes it durable. */
bool chunk_writer_append(ChunkWriter *w, const uint8_t *record, size_t size, char *err,
                         size_t err_size);
/* Renames the finished .part to its name (every game written) and syncs the folder. */
bool chunk_writer_finish(ChunkWriter *w, char *err, size_t err_size);
/* Closes the .part where it stands (a failed run: the next one resumes it). */
void chunk_writer_close(ChunkWriter *w);

#endif

/* Syzygy table files vetted before Fathom (libfathom) trusts them. Fathom reads a
 * table's structures without checking them: one changed byte can overflow its stack or
 * heap on the first probe and take the engine down. So, when a path is set:
 *   1. cheap checks of every *.rtbw / *.rtbz file: a regular file, a size of 16 modulo 64
 *      (as every Syzygy file has) and the magic number of its kind;
 *   2. the structure check of tbfile.h: every header, code table, symbol tree,
 *      index and section of the file is consistent, and the compressed blocks near the
 *      file's end decode within it (TBCHECK_FULL: every block);
 *   3. in a forked child, Fathom loads the path and each material is probed, WDL then
 *      DTZ, for each side to move (which builds the table's decoding structures),
 *      smallest tables first; a probe that kills the child, or runs 10 s, names its file.
 * Files that fail are left out: Fathom is then given a private directory of links to the
 * good files instead of the path. A file that passes can still hold wrong values where
 * its compressed data was changed (the decoder cannot tell); it cannot crash Fathom's
 * decoder as far as the structure check sees, and syzygy.c guards the probes besides. */
#ifndef SAAVEDRA_TBCHECK_H
#define SAAVEDRA_TBCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/position.h"
#include "util/writer.h"

typedef struct {
    int files;          /* table files found */
    int bad;            /* left out */
    int bad_structure;  /* of which by the structure check */
    bool probed;        /* the forked probe ran to its end */
    int64_t elapsed_us; /* the whole check */
    int64_t structure_us; /* of which the structure check */
} TbCheckStats;

/* What to check (stages 1 is always done). TBCHECK_DEFAULT is what a load does. */
enum {
    TBCHECK_STRUCTURE = 1, /* stage 2 */
    TBCHECK_PROBE = 2,     /* stage 3 */
    TBCHECK_FULL = 4,      /* stage 2 decodes every block (reads every byte of every file) */
    TBCHECK_DEFAULT = TBCHECK_STRUCTURE | TBCHECK_PROBE
};

/* Checks the tables of path (directories separated by ':', already normalised). Writes
 * the path to give Fathom into use_path (path itself when nothing was left out) and, in
 * report, one line naming what was left out and why (empty when nothing was). With
 * for_loading, a private directory in use_path replaces the one of the previous load
 * (Fathom opens files lazily, so it stays until the next load or exit); without, the
 * check changes nothing (an on-demand report). what is a set of TBCHECK_ flags. verbose,
 * when not NULL, receives one line per file. Returns false, with use_path = path and a
 * reason in report, when the probe check could not run (no fork). */
bool tbcheck_path(const char *path, unsigned what, bool for_loading, char *use_path,
                  size_t use_size, char *report, size_t report_size, Writer *verbose,
                  TbCheckStats *stats);

/* Calls fn(ctx, pos) once for every WDL table file in path (directories separated by
 * ':'), with a legal position of its material in which the side to move has no capture:
 * Fathom resolves captures before it reads a table, so a probe of pos reads that very
 * table (and so builds its decoding structures). */
void tbcheck_each_material(const char *path, void (*fn)(void *ctx, const Position *pos), void *ctx);

/* Removes the private directory of the last load (the tables are unloaded). */
void tbcheck_release(void);

#endif

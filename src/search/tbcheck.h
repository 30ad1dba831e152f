/* Syzygy table files vetted before Fathom (libfathom) trusts them. Fathom reads a
 * table's structures without checking them: one changed byte can overflow its stack or
 * heap on the first probe and take the engine down. So, when a path is set:
 *   1. cheap checks of every *.rtbw / *.rtbz file: a regular file, a size of 16 modulo 64
 *      (as every Syzygy file has) and the magic number of its kind;
 *   2. in a forked child, Fathom loads the path and each material is probed once, WDL
 *      then DTZ, for each side to move (which builds the table's decoding structures),
 *      smallest tables first; a probe that kills the child, or runs 10 s, names its file.
 * Files that fail are left out: Fathom is then given a private directory of links to the
 * good files instead of the path. Corruption in the compressed data itself (not the
 * headers) can still give wrong values; the files carry no checksum to find it. */
#ifndef SAAVEDRA_TBCHECK_H
#define SAAVEDRA_TBCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    int files;          /* table files found */
    int bad;            /* left out */
    bool probed;        /* the forked probe ran to its end */
    int64_t elapsed_us; /* the whole check */
} TbCheckStats;

/* Checks the tables of path (directories separated by ':', already normalised). Writes
 * the path to give Fathom into use_path (path itself when nothing was left out) and, in
 * report, one line naming what was left out and why (empty when nothing was). With
 * for_loading, a private directory in use_path replaces the one of the previous load
 * (Fathom opens files lazily, so it stays until the next load or exit); without, the
 * check changes nothing (an on-demand report). verbose, when not NULL, receives one line
 * per file. Returns false, with use_path = path and a reason in report, when the probe
 * check could not run (no fork). */
bool tbcheck_path(const char *path, bool for_loading, char *use_path, size_t use_size, char *report,
                  size_t report_size, FILE *verbose, TbCheckStats *stats);

/* Removes the private directory of the last load (the tables are unloaded). */
void tbcheck_release(void);

#endif

/* The output of the EPD `test` command (epdtest.h): every line goes to the console
 * and, with -o, to a report file as well; and the summary printed at the end of a run.
 *
 * The report file: a new name or a regular file is written safely (outfile.h: temporary
 * name, fsync, rename when the run ends written whole); anything else (a symbolic link, a
 * device, a FIFO) is written through, so that it stays what it is. The suite itself is
 * never taken for a report. */
#ifndef SAAVEDRA_EPDREPORT_H
#define SAAVEDRA_EPDREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/outfile.h"
#include "util/writer.h"

typedef struct {
    Writer *out;           /* the console */
    FILE *copy;            /* the -o file, or NULL */
    const char *path;      /* its name as given */
    bool through;          /* written through (not a regular file) */
    OutFile file;          /* otherwise the temporary file (outfile.h) */
} EpdReport;

/* Starts the output on out; with path (the -o name; NULL for none) the report file too.
 * suite_path and suite are the suite being read, refused as a report. False with a
 * one-line reason in err when the file cannot be written (nothing is left behind). */
bool epdreport_open(EpdReport *r, Writer *out, const char *path, const char *suite_path,
                    FILE *suite, char *err, size_t err_size);

/* One piece of output, to both. */
void epdreport_printf(EpdReport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Ends the report file: with keep, written whole and renamed into place (false when it
 * could not be); without, the temporary file is removed. True when there is no file. */
bool epdreport_close(EpdReport *r, bool keep);

/* What one position of the suite gave. */
typedef struct {
    bool correct;
    int64_t solve_ms, total_ms;
    uint64_t solve_nodes, total_nodes;
    int solve_depth, depth;
} EpdOutcome;

/* The end of a run over n positions: a grid of solution times, the suite and its limit
 * (depth, or seconds when depth is 0), whether the user stopped it, the records skipped,
 * `correct: k/n`, averages to solution and the totals. */
void epdreport_summary(EpdReport *r, const char *suite_path, int depth, double seconds,
                       const EpdOutcome *res, int n, int skipped, bool interrupted);

#endif

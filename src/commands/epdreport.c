/* The EPD test's output and summary: see epdreport.h. */
#include "commands/epdreport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"

#define GRID_COLUMNS 10

bool epdreport_open(EpdReport *r, Writer *out, const char *path, const char *suite_path,
                    FILE *suite, char *err, size_t err_size)
{
    r->out = out;
    r->copy = NULL;
    r->path = path;
    r->through = false;
    if (!path)
        return true;
    struct stat out_st, in_st;
    bool exists = lstat(path, &out_st) == 0;
    struct stat target;
    if (!strcmp(path, suite_path)
        || (stat(path, &target) == 0 && fstat(fileno(suite), &in_st) == 0
            && target.st_dev == in_st.st_dev && target.st_ino == in_st.st_ino)) {
        snprintf(err, err_size, "test: -o %s is the suite itself; refusing to overwrite it", path);
        return false;
    }
    if (exists && !S_ISREG(out_st.st_mode)) {
        if (S_ISDIR(out_st.st_mode)) {
            snprintf(err, err_size, "test: cannot write %s: %s", path, strerror(EISDIR));
            return false;
        }
        r->copy = fopen(path, "w");
        if (!r->copy) {
            snprintf(err, err_size, "test: cannot write %s: %s", path, strerror(errno));
            return false;
        }
        r->through = true;
        return true;
    }
    char why[4400];
    r->copy = outfile_open(&r->file, path, why, sizeof why);
    if (!r->copy) {
        snprintf(err, err_size, "test: %s", why);
        return false;
    }
    return true;
}

void epdreport_printf(EpdReport *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    writer_vprintf(r->out, fmt, ap);
    va_end(ap);
    if (r->copy) {
        va_start(ap, fmt);
        vfprintf(r->copy, fmt, ap);
        va_end(ap);
    }
}

bool epdreport_close(EpdReport *r, bool keep)
{
    if (!r->copy)
        return true;
    if (r->through) {
        bool written = !ferror(r->copy);
        written &= fclose(r->copy) == 0;
        r->copy = NULL;
        return written || !keep;
    }
    r->copy = NULL;
    if (!keep) {
        outfile_abort(&r->file);
        return true;
    }
    char why[4400];
    return outfile_commit(&r->file, why, sizeof why);
}

void epdreport_summary(EpdReport *r, const char *suite_path, int depth, double seconds,
                       const EpdOutcome *res, int n, int skipped, bool interrupted)
{
    int correct = 0;
    int64_t solve_ms = 0, total_ms = 0;
    uint64_t solve_nodes = 0, total_nodes = 0;
    long solve_depth = 0;
    for (int i = 0; i < n; i++) {
        total_ms += res[i].total_ms;
        total_nodes += res[i].total_nodes;
        if (res[i].correct) {
            correct++;
            solve_ms += res[i].solve_ms;
            solve_nodes += res[i].solve_nodes;
            solve_depth += res[i].solve_depth;
        }
    }
    epdreport_printf(r, "\nsolution times in seconds "
                        "(row + column = position number; ----- = not solved):\n      ");
    for (int c = 0; c < GRID_COLUMNS; c++)
        epdreport_printf(r, "%7d", c);
    for (int i = 0; i < n; i++) {
        if (i % GRID_COLUMNS == 0)
            epdreport_printf(r, "\n%5d ", i + 1);
        if (res[i].correct)
            epdreport_printf(r, "%7.2f", res[i].solve_ms / 1000.0);
        else
            epdreport_printf(r, "  -----");
    }
    epdreport_printf(r, "\n\n");
    epdreport_printf(r, "suite: %s, %s", suite_path, depth ? "depth " : "");
    if (depth)
        epdreport_printf(r, "%d", depth);
    else
        epdreport_printf(r, "%g s per position", seconds);
    epdreport_printf(r, "\n");
    if (interrupted)
        epdreport_printf(r, "stopped by the user after %d position%s\n", n, n == 1 ? "" : "s");
    if (skipped)
        epdreport_printf(r, "skipped: %d\n", skipped);
    epdreport_printf(r, "correct: %d/%d\n", correct, n);
    if (correct) {
        epdreport_printf(r, "average time to solution: %.3f s\n", solve_ms / 1000.0 / correct);
        epdreport_printf(r, "average nodes to solution: %llu\n",
                         (unsigned long long)(solve_nodes / (uint64_t)correct));
        epdreport_printf(r, "average depth to solution: %.1f\n", (double)solve_depth / correct);
    }
    if (n)
        epdreport_printf(r, "total time: %.1f s, total nodes: %llu, nps: %llu\n", total_ms / 1000.0,
                         (unsigned long long)total_nodes,
                         (unsigned long long)(total_ms > 0 ? total_nodes * 1000 / (uint64_t)total_ms
                                                           : 0));
}

/* The parallel search's statistics as text (docs/smp.md, "Statistics"): the lines bench
 * ends with, and the console command `smpstats [reset]`, which prints them for the
 * searches since the engine started or since the last reset (the searches of a GUI or a
 * script, e.g. tools/measure/smp-mates.py --checks). */
#ifndef SAAVEDRA_SMPSTATS_H
#define SAAVEDRA_SMPSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "search/thread.h"
#include "util/writer.h"

/* "Splits: ..." and "Locks: ..." lines for a pool of `threads` threads. */
void smpstats_print_summary(Writer *out, const SplitStats *s, int threads);

/* "SMP stats: key=value ..." on one line, for scripts (tools/measure/smp-model.py). */
void smpstats_print_line(Writer *out, const SplitStats *s, int threads, uint64_t nodes);

/* "Search checks: S stale exclusions, D wrong double-extension counts, N wrong node
 * counts": the invariants of src/search/checks.h, meaningful in a SEARCH_CHECKS build. */
void smpstats_print_checks(Writer *out, const SplitStats *s);

/* `smpstats [reset]` (argv[0] is "smpstats"): the summary with more than one thread, then
 * the search checks, or that this build does not count them; `reset` starts the counts
 * again after printing. A bad argument leaves a usage line in err. */
void smpstats_command(Engine *e, int argc, char **argv, Writer *out, char *err, size_t err_size);

#endif

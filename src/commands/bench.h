/* The search benchmark: a fixed set of positions searched to a fixed depth with a fresh
 * hash table and histories each, so the node count is a signature of the search and
 * evaluation (single-threaded it is deterministic). Ends with the lines
 * "Nodes searched: N", "Nodes/second: N" and "N nodes M nps" (OpenBench's form). */
#ifndef SAAVEDRA_BENCH_H
#define SAAVEDRA_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/writer.h"

#define BENCH_DEFAULT_DEPTH 14
#define BENCH_DEFAULT_HASH_MB 16

/* The evaluation a bench uses: the engine's default (the built-in net when the build has
 * one), the hand-written one, or the built-in net (an error without one). */
typedef enum { BENCH_EVAL_DEFAULT, BENCH_EVAL_HCE, BENCH_EVAL_NNUE } BenchEval;

/* Returns the total node count, or 0 after printing an error. */
uint64_t bench_run(int depth, int threads, int hash_mb, const char *smp_mode, BenchEval eval_mode,
                   Writer *out);
/* `bench [depth [threads [hashMB [YBWC|Lazy [HCE|NNUE]]]]]` arguments (argv excludes "bench");
 * exit status. Bad arguments leave a one-line usage in err (empty otherwise) and run nothing. */
int bench_main(int argc, char **argv, Writer *out, char *err, size_t err_size);

#endif

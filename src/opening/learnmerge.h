/* The merge rules of the learning file's records (docs/learning-format.md), used by
 * compaction (learnfile.c), by the engine when it loads the file (engine/learner.c) and
 * by `saavedra learn`: one record per position, the book results of a move summed. */
#ifndef SAAVEDRA_LEARNMERGE_H
#define SAAVEDRA_LEARNMERGE_H

#include "opening/learnrec.h"

/* Sorts positions by key and keeps one per key: the deepest (the later one on equal
 * depth; p must be in file order); then, beyond max, drops the shallowest. Returns the
 * new count. */
int learn_merge_positions(LearnPosition *p, int n, int max);
/* Sorts book results by (key, code) and sums the results of each move (scaled down,
 * proportions kept, past 65535); beyond max, keeps the most played. Returns the count. */
int learn_merge_books(LearnBookStat *b, int n, int max);

#endif

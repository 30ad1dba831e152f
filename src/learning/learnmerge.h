/* The learning file's records gathered in memory and merged (docs/learning-format.md),
 * by compaction (learnfile.c), by the engine when it loads the file (learning/learner.c)
 * and by `saavedra learn`: one record per position, the book results of a move summed. */
#ifndef SAAVEDRA_LEARNMERGE_H
#define SAAVEDRA_LEARNMERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "learning/learnrec.h"

/* The positions and book results of a file, in file order: a LearnVisitor's ctx with
 * learn_collect_position and learn_collect_book as its callbacks (a struct that has one
 * as its first member may be the ctx as well). A record that does not fit in memory is
 * left out and sets failed. */
typedef struct {
    LearnPosition *pos;
    int pos_count;
    size_t pos_cap;
    LearnBookStat *book;
    int book_count;
    size_t book_cap;
    bool failed;
} LearnCollection;

void learn_collect_position(void *ctx, const LearnPosition *p);
void learn_collect_book(void *ctx, const LearnBookStat *b);
/* Frees both arrays (NULL and 0 afterwards). */
void learn_collection_free(LearnCollection *c);

/* Sorts positions by key and keeps one per key: the deepest (the later one on equal
 * depth; p must be in file order); then, beyond max, drops the shallowest. Returns the
 * new count. */
int learn_merge_positions(LearnPosition *p, int n, int max);
/* Sorts book results by (key, code) and sums the results of each move (scaled down,
 * proportions kept, past 65535); beyond max, keeps the most played. Returns the count. */
int learn_merge_books(LearnBookStat *b, int n, int max);

#endif

/* Building an opening book from PGN files (the makebook tool, tools/programs/makebook.c).
 *
 * Positions are keyed by their Polyglot key, so transpositions merge whatever move order
 * reached them; moves are stored as one-byte move codes. Two kinds of input, as in
 * Arasan's makebook:
 *  - the annotated file (the first one): every line, variations included, goes into the
 *    book whatever -m and -p say; a {weight: N} comment after a move sets its weight
 *    (0..100), the move NAGs adjust it (!! maximum, ! +50%, !? +25%, ?! -50%, ? and ??
 *    never played, still known), and a position NAG (=, +=, +/-, +-, and Black's) shifts
 *    the weights of the moves along the line that leads to it. Its game results are not
 *    counted.
 *  - game files: the main line of each game up to max_ply plies gives each move one game
 *    and a win, draw or loss for the side that played it.
 * Without an explicit weight a move's weight comes from its frequency and score (see
 * docs/book-format.md); moves seen in fewer than min_freq games are left out unless the
 * annotated file has them. Skipped games (illegal moves, broken PGN) are reported by the
 * PGN reader with file and game number and leave nothing behind. */
#ifndef SAAVEDRA_BOOKBUILD_H
#define SAAVEDRA_BOOKBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/pgn.h"

typedef struct {
    int min_freq;   /* -m: fewest games for a move of the game files (default 1) */
    int max_ply;    /* -p: plies read from each game of the game files; 0 = all */
} BookBuildOptions;

typedef struct {
    long games, skipped;            /* games read / skipped, all files */
    long moves;                     /* moves added */
    uint32_t positions;             /* distinct positions so far */
} BookBuildStats;

/* Receives the running statistics every few hundred games (for a progress line). */
typedef void (*BookBuildProgress)(void *ctx, const BookBuildStats *stats);

typedef struct BookBuilder BookBuilder;

/* NULL when memory is short. */
BookBuilder *bookbuild_new(const BookBuildOptions *opts);
void bookbuild_free(BookBuilder *b);

/* Adds one PGN file (annotated: the first file's rules). Messages about skipped games go
 * to sink (NULL: stderr). False when the file cannot be opened or read to its end, or
 * memory ran out (err says which; what was read stays in the builder). */
bool bookbuild_add_file(BookBuilder *b, const char *path, bool annotated, PgnErrorSink sink,
                        void *sink_ctx, BookBuildProgress progress, void *progress_ctx,
                        char *err, size_t err_size);
/* The same from an open stream (not closed); name is used in messages. */
bool bookbuild_add_stream(BookBuilder *b, FILE *in, const char *name, bool annotated,
                          PgnErrorSink sink, void *sink_ctx, BookBuildProgress progress,
                          void *progress_ctx, char *err, size_t err_size);

const BookBuildStats *bookbuild_stats(const BookBuilder *b);

typedef struct {
    uint32_t positions, entries, pages;
    size_t bytes;
    char pages_note[200];           /* set when the requested page count was changed */
} BookBuildSummary;

/* Computes the weights, drops what the limits exclude and writes the book (temporary
 * file renamed into place). pages 0: the default. False with err on failure. */
bool bookbuild_write(BookBuilder *b, const char *path, uint32_t pages, BookBuildSummary *summary,
                     char *err, size_t err_size);

#endif

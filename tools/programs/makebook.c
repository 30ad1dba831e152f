/* makebook: builds a Saavedra opening book (docs/book-format.md) from PGN files.
 *
 *   makebook [-n PAGES] [-m MINFREQ] [-p MAXPLY] [-o FILE] [-v] first.pgn [more.pgn ...]
 *
 * The first file is the hand-annotated one ({weight: N} comments, NAGs, variations); the
 * others add game statistics (see src/toolkit/bookbuild.h). A progress line goes to
 * stderr on a terminal; the summary to stdout. The book is written to a temporary file
 * and renamed, so an interrupted run never leaves a half-written book under FILE. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/position.h"
#include "toolkit/bookbuild.h"
#include "util/timeutil.h"

typedef struct {
    bool tty, verbose;
    int64_t start_ms;
    long skipped_messages;
} Run;

static void usage(FILE *f)
{
    fprintf(f, "usage: makebook [-n PAGES] [-m MINFREQ] [-p MAXPLY] [-o FILE] [-v] first.pgn [more.pgn ...]\n"
               "  first.pgn  the hand-annotated file: {weight: N} comments (0-100), NAGs !! ! !? ?! ? ??,\n"
               "             position NAGs at line ends, variations; all of it goes into the book\n"
               "  more.pgn   game files: main lines give frequency and win/draw/loss statistics\n"
               "  -n PAGES   index pages (default: one per %d positions; too few are grown)\n"
               "  -m MINFREQ fewest games for a move from the game files (default 1)\n"
               "  -p MAXPLY  plies read from each game of the game files (default: all)\n"
               "  -o FILE    output (default book.bin)\n"
               "  -v         verbose: per-file counts\n", 32);
}

static bool parse_count(const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

static void progress_line(void *ctx, const BookBuildStats *s)
{
    Run *run = ctx;
    if (!run->tty)
        return;
    double secs = (time_now_ms() - run->start_ms) / 1000.0;
    fprintf(stderr, "\r%ld games, %.0f games/s, %u positions, %.1f s   ", s->games,
            secs > 0 ? s->games / secs : 0.0, s->positions, secs);
    fflush(stderr);
}

static void on_skip(void *ctx, const char *message)
{
    Run *run = ctx;
    if (run->tty)
        fprintf(stderr, "\r%70s\r", "");
    fprintf(stderr, "makebook: %s\n", message);
    run->skipped_messages++;
}

int main(int argc, char **argv)
{
    long pages = 0, min_freq = 1, max_ply = 0;
    const char *out = "book.bin";
    Run run = { .tty = isatty(STDERR_FILENO) };
    int opt;
    while ((opt = getopt(argc, argv, "n:m:p:o:vh")) != -1) {
        switch (opt) {
        case 'n':
            if (!parse_count(optarg, 1, 1L << 30, &pages)) {
                fprintf(stderr, "makebook: -n wants a page count from 1 to %ld, not '%s'\n", 1L << 30, optarg);
                return 2;
            }
            break;
        case 'm':
            if (!parse_count(optarg, 1, 1000000000, &min_freq)) {
                fprintf(stderr, "makebook: -m wants a game count of at least 1, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'p':
            if (!parse_count(optarg, 1, 100000, &max_ply)) {
                fprintf(stderr, "makebook: -p wants a ply count of at least 1, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'o': out = optarg; break;
        case 'v': run.verbose = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    position_init();
    BookBuildOptions bo = { (int)min_freq, (int)max_ply };
    BookBuilder *b = bookbuild_new(&bo);
    if (!b) {
        fprintf(stderr, "makebook: out of memory\n");
        return 1;
    }
    run.start_ms = time_now_ms();
    char err[300];
    for (int i = optind; i < argc; i++) {
        long games = bookbuild_stats(b)->games, skipped = bookbuild_stats(b)->skipped;
        if (!bookbuild_add_file(b, argv[i], i == optind, on_skip, &run, progress_line, &run, err, sizeof err)) {
            if (run.tty)
                fprintf(stderr, "\n");
            fprintf(stderr, "makebook: %s\n", err);
            bookbuild_free(b);
            return 1;
        }
        if (run.verbose) {
            if (run.tty)
                fprintf(stderr, "\r%70s\r", "");
            printf("%s: %ld games, %ld skipped%s\n", argv[i], bookbuild_stats(b)->games - games,
                   bookbuild_stats(b)->skipped - skipped, i == optind ? " (annotated)" : "");
        }
    }
    if (run.tty)
        fprintf(stderr, "\r%70s\r", "");
    double read_s = (time_now_ms() - run.start_ms) / 1000.0;
    BookBuildSummary sum;
    bool ok = bookbuild_write(b, out, (uint32_t)pages, &sum, err, sizeof err);
    double total_s = (time_now_ms() - run.start_ms) / 1000.0;
    const BookBuildStats *s = bookbuild_stats(b);
    if (sum.pages_note[0])
        fprintf(stderr, "makebook: -n: %s\n", sum.pages_note);
    if (!ok) {
        fprintf(stderr, "makebook: %s\n", err);
        bookbuild_free(b);
        return 1;
    }
    printf("%s: %ld games (%ld skipped), %ld moves read in %.2f s (%.0f games/s)\n", out, s->games,
           s->skipped, s->moves, read_s, read_s > 0 ? s->games / read_s : 0.0);
    printf("%u positions, %u entries, %u pages, %zu bytes (%.2f bytes per entry), %.2f s in all\n",
           sum.positions, sum.entries, sum.pages, sum.bytes,
           sum.entries ? (double)sum.bytes / sum.entries : 0.0, total_s);
    bookbuild_free(b);
    return 0;
}

/* learn-speed [N [HASH_MB]]: how long the engine takes to load N learned positions
 * (default 100,000) from a learning file into a transposition table of HASH_MB (default
 * 16), as at start-up and at each new game: read and check the file, merge the records by
 * key, store them in the table. Writes a file of N position records with random keys,
 * depths and scores (in /tmp), then loads it seven times and prints each time, the best
 * and median, and the file's bytes per record. Also times appending N records one by one
 * (the position-learning path: lock, check what others added, one write) and one
 * compaction. Times are wall-clock (the work is I/O and memory bound). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "learning/learner.h"
#include "util/timeutil.h"
#include "util/words.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = 100000, mb = 16;
    if (argc > 3 || (argc > 1 && !word_to_int(argv[1], 1, LEARN_MAX_POSITIONS, &n))
        || (argc > 2 && !word_to_int(argv[2], 1, 1 << 20, &mb))) {
        fprintf(stderr, "usage: learn-speed [N (1..%d) [HASH_MB]]\n", LEARN_MAX_POSITIONS);
        return 2;
    }
    position_init();
    char path[64];
    snprintf(path, sizeof path, "/tmp/learn-speed-%ld.lrn", (long)getpid());
    unlink(path);

    /* The file: N records in a few large appends (as a long-lived file would hold). */
    LearnFile lf;
    learnfile_init(&lf, path);
    uint64_t seed = 0x5EED;
    enum { CHUNK = 4096 };
    uint8_t *buf = malloc((size_t)CHUNK * LEARN_POSITION_SIZE);
    char warn[700];
    for (int done = 0; done < n;) {
        size_t len = 0;
        int k = 0;
        for (; k < CHUNK && done + k < n; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            LearnPosition p = { seed ^ (seed >> 29), (uint8_t)(seed >> 8), true, (int16_t)((seed >> 16) % 2001 - 1000),
                                (uint8_t)(10 + (seed >> 40) % 20) };
            len += learn_encode_position(&p, buf + len, (size_t)CHUNK * LEARN_POSITION_SIZE - len);
        }
        if (!learnfile_append(&lf, buf, len, false, warn, sizeof warn)) {
            fprintf(stderr, "learn-speed: %s\n", warn);
            return 1;
        }
        done += k;
    }
    size_t size = learnfile_size(&lf);
    printf("file: %d position records, %zu bytes, %.2f bytes per record (header %d)\n", n, size,
           (double)(size - LEARN_HEADER_SIZE) / n, LEARN_HEADER_SIZE);

    Learner *l = learner_new();
    learner_configure(l, true, path, LEARN_DEFAULT_THRESHOLD);
    TranspositionTable tt;
    if (!l || !tt_init(&tt, (size_t)mb)) {
        fprintf(stderr, "learn-speed: out of memory\n");
        return 1;
    }
    enum { RUNS = 7 };
    double ms[RUNS];
    int stored = 0;
    printf("load into a %d MB table:", mb);
    for (int r = 0; r < RUNS; r++) {
        tt_clear(&tt, 1);
        int64_t t0 = time_now_us();
        stored = learner_load_into(l, &tt, warn, sizeof warn);
        ms[r] = (double)(time_now_us() - t0) / 1000.0;
        printf(" %.1f", ms[r]);
    }
    qsort(ms, RUNS, sizeof *ms, cmp_double);
    printf(" ms\nload: %d records stored, best %.1f ms, median %.1f ms (%.0f ns per record)\n", stored, ms[0],
           ms[RUNS / 2], ms[RUNS / 2] * 1e6 / n);

    /* Appends one at a time (2 records each, as position learning writes them). */
    int appends = 2000;
    int64_t t0 = time_now_us();
    for (int i = 0; i < appends; i++) {
        LearnPosition p = { (Key)i * 0x9E3779B97F4A7C15ULL, 1, true, 100, 12 };
        size_t len = learn_encode_position(&p, buf, 64);
        p.key ^= 1;
        len += learn_encode_position(&p, buf + len, 64);
        learnfile_append(&lf, buf, len, false, warn, sizeof warn);
    }
    double per_append = (double)(time_now_us() - t0) / appends;
    printf("append: %d appends of 2 records to the %zu-byte file, %.1f us each\n", appends, size, per_append);
    LearnLimits lim = { LEARN_MAX_POSITIONS, LEARN_MAX_GAMES, LEARN_MAX_BOOK };
    LearnParse after;
    t0 = time_now_us();
    learnfile_compact(&lf, &lim, &after, warn, sizeof warn);
    printf("compaction: %d positions kept, %.1f ms\n", after.positions, (double)(time_now_us() - t0) / 1000.0);
    tt_free(&tt);
    learner_free(l);
    free(buf);
    unlink(path);
    return 0;
}

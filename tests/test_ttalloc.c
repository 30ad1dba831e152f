/* The transposition table's memory: a new table is not touched when it is made (a large
 * Hash answers at once instead of zeroing gigabytes first); a size the system cannot give
 * is refused and the old table kept. */
#include <stdio.h>
#include <string.h>

#include "search/transposition.h"
#include "test.h"

/* Resident memory of this process, in MB (-1 when unknown). */
static long resident_mb(void)
{
    long kb = test_proc_status("VmRSS");
    return kb < 0 ? -1 : kb / 1024;
}

static long available_mb(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    char line[160];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

TEST(tt_new_table_is_not_touched)
{
    if (available_mb() < 2048)
        return; /* not on a machine this small */
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 1)))
        return;
    long before = resident_mb();
    CHECK(tt_resize(&tt, 512));
    long after = resident_mb();
    CHECK_MSG(before >= 0 && after - before < 64, "resident %ld MB -> %ld MB after a 512 MB resize", before, after);
    /* Zeroed all the same: nothing found, and what is stored is found. */
    TTData d;
    CHECK(!tt_probe(&tt, 0x123456789abcdefULL, 0, &d));
    tt_store(&tt, 0x123456789abcdefULL, 0, MOVE_NONE, 17, 5, 3, BOUND_EXACT);
    CHECK(tt_probe(&tt, 0x123456789abcdefULL, 0, &d) && d.score == 17);
    tt_free(&tt);
}

TEST(tt_size_that_cannot_be_had_is_refused)
{
    long avail = available_mb();
    if (avail < 0 || avail + 256 >= TT_MAX_MB)
        return; /* the machine could hold the largest table */
    TranspositionTable tt;
    if (!CHECK(tt_init(&tt, 4)))
        return;
    tt_store(&tt, 42, 0, MOVE_NONE, 5, 5, 3, BOUND_EXACT);
    TTBucket *old = tt.buckets;
    CHECK(!tt_resize(&tt, (size_t)avail + 256 < TT_MAX_MB ? (size_t)avail + 256 : TT_MAX_MB));
    CHECK(tt.buckets == old);
    CHECK_EQ(tt.size_mb, 4);
    TTData d;
    CHECK(tt_probe(&tt, 42, 0, &d) && d.score == 5); /* the old table, contents and all */
    tt_free(&tt);
}

/* Syzygy table structure check (tablebase/tbfile.c): arbitrary bytes as a table file. The
 * first byte picks the file name (material and kind), the rest is the file. The checker
 * reads through a bounded source and must never crash, loop or read outside it; its
 * reason is one line; a file it accepts has its every block decoded (TBFILE_WALK_ALL).
 * Seeds: the small tables of tests/data/syzygy with their name byte. */
#include "fuzz.h"

#include "tablebase/tbfile.h"

/* Index = the seed's first byte (tests/fuzz/seeds.sh writes the same list). */
static const char *const NAMES[] = {
    "KBvK.rtbw", "KBvK.rtbz", "KRvK.rtbw", "KQvK.rtbw", "KNvKN.rtbw", "KRRvK.rtbw", "KBvKN.rtbw",
    "KRvKR.rtbz", "KPvK.rtbz", "KRPvK.rtbw", "KQvK.rtbz", "KBvKP.rtbz", "KQvKB.rtbw", "KQvKQ.rtbz",
    "KQQvK.rtbw", "KPvK.rtbw",
};
#define NAME_COUNT (sizeof NAMES / sizeof *NAMES)

typedef struct {
    const uint8_t *bytes;
    size_t size;
} Memory;

static bool read_memory(void *ctx, uint64_t off, void *buf, size_t len)
{
    const Memory *m = ctx;
    fuzz_require(off <= m->size && len <= m->size - off); /* never asks past the end */
    memcpy(buf, m->bytes + off, len);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *name = NAMES[data[0] % NAME_COUNT];
    Memory m = {data + 1, size - 1};
    TbSource src = {read_memory, &m, m.size};
    char why[200];
    TbFileStats st;
    bool ok = tbfile_check(name, &src, TBFILE_WALK_ALL, why, sizeof why, &st);
    fuzz_require(ok ? why[0] == '\0' && st.walked == st.blocks : why[0] != '\0' && !strchr(why, '\n'));
    return 0;
}

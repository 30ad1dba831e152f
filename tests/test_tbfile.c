/* The Syzygy file structure check (tablebase/tbfile.c): every sound table of the 3- and
 * 4-piece set passes, including a decode of every block; damage that made Fathom recurse
 * without end, or read outside its tables, is refused with its reason. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tablebase/tbfile.h"
#include "test.h"

typedef struct {
    unsigned char *bytes;
    size_t size;
} Memory;

static bool read_memory(void *ctx, uint64_t off, void *buf, size_t len)
{
    Memory *m = ctx;
    if (off > m->size || len > m->size - off)
        return false;
    memcpy(buf, m->bytes + off, len);
    return true;
}

static bool load(const char *name, Memory *m)
{
    char dir[1024], path[1100];
    test_data_path("syzygy", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    m->bytes = NULL;
    m->size = 0;
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    m->bytes = n > 0 ? malloc((size_t)n) : NULL;
    bool ok = m->bytes && fread(m->bytes, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    m->size = ok ? (size_t)n : 0;
    return ok;
}

static bool check_memory(const char *name, Memory *m, TbWalk walk, char *why, size_t size)
{
    TbSource src = {read_memory, m, m->size};
    return tbfile_check(name, &src, walk, why, size, NULL);
}

TEST(tbfile_accepts_every_sound_table)
{
    char dir[1024];
    test_data_path("syzygy", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!CHECK(d))
        return;
    int files = 0;
    uint64_t blocks = 0, walked = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".rtb"))
            continue;
        char path[1300], why[200];
        TbFileStats st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        CHECK_MSG(tbfile_check_path(path, TBFILE_WALK_ALL, why, sizeof why, &st), "%s: %s", e->d_name, why);
        files++;
        blocks += st.blocks;
        walked += st.walked;
    }
    closedir(d);
    CHECK_EQ(files, 70);
    CHECK_EQ(walked, blocks); /* every block decoded */
    CHECK(blocks > 20000);
}

TEST(tbfile_refuses_damage_fathom_trusts)
{
    Memory m;
    char why[200];
    if (!CHECK(load("KPvK.rtbz", &m)))
        return;
    CHECK(check_memory("KPvK.rtbz", &m, TBFILE_WALK_ALL, why, sizeof why));
    /* Symbol 1 of the first sub-table made a pair of itself: Fathom recursed until its
     * stack overflowed. */
    unsigned char saved = m.bytes[47];
    m.bytes[47] = 1;
    CHECK(!check_memory("KPvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why));
    CHECK_MSG(strstr(why, "cycle") != NULL, "%s", why);
    m.bytes[47] = saved;
    /* The block size of the first sub-table, byte 23 ^ 0xff: once a crash in Fathom. */
    m.bytes[23] ^= 0xff;
    CHECK(!check_memory("KPvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why));
    CHECK_MSG(strstr(why, "out of range") != NULL, "%s", why);
    m.bytes[23] ^= 0xff;
    /* A symbol whose children lie past the symbol table (23 symbols). */
    m.bytes[47] = 200;
    CHECK(!check_memory("KPvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why));
    CHECK_MSG(strstr(why, "past the symbol table") != NULL, "%s", why);
    m.bytes[47] = saved;
    /* Truncated by 64 bytes: the size check still passes, the layout does not. */
    size_t size = m.size;
    m.size -= 64;
    CHECK(!check_memory("KPvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why));
    m.size = size;
    /* The same bytes under another material's name. */
    CHECK(!check_memory("KNvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why));
    CHECK(!check_memory("KPvK.rtbw", &m, TBFILE_WALK_TAIL, why, sizeof why));
    CHECK(check_memory("KPvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why));
    free(m.bytes);
}

/* Every block size and index entry is pinned by the others: any change to a byte of
 * KRvK.rtbz's index (one entry, bytes 1022-1027) or block-size table (7 blocks, bytes
 * 1028-1041) is refused, whatever its new value. Fathom walks from an index entry
 * through the block sizes without a bound, so such damage could take it anywhere. */
TEST(tbfile_index_and_block_sizes_pinned)
{
    Memory m;
    char why[200];
    if (!CHECK(load("KRvK.rtbz", &m)) || !CHECK_EQ(m.size, 8272))
        return;
    CHECK(check_memory("KRvK.rtbz", &m, TBFILE_WALK_ALL, why, sizeof why));
    int accepted = 0;
    for (size_t off = 1022; off < 1042; off++) {
        unsigned char saved = m.bytes[off];
        for (int v = 0; v < 256; v++) {
            m.bytes[off] = (unsigned char)v;
            bool ok = check_memory("KRvK.rtbz", &m, TBFILE_WALK_TAIL, why, sizeof why);
            accepted += ok && v != saved;
            CHECK(ok == (v == saved));
        }
        m.bytes[off] = saved;
    }
    CHECK_EQ(accepted, 0);
    free(m.bytes);
}

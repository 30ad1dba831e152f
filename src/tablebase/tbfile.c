/* Syzygy table files checked against their own structure: see tbfile.h, and
 * docs/tablebases.md ("The file format") for the layout this follows. */
#define _GNU_SOURCE
#include "tablebase/tbfile.h"

#include "tablebase/tbcode.h"
#include "tablebase/tbstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"

static uint64_t choose(int n, int k)
{
    if (k < 0 || n < k)
        return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

/* "KRPvKR.rtbw": the material (left of the v is white in the table's own terms). */
static bool parse_name(Checker *c, const char *name)
{
    static const char TYPES[] = "PNBRQK";
    size_t n = strlen(name);
    if (n < 9 || n > 15)
        return tb_fail(c, "not a table file name");
    const char *dot = name + n - 5;
    if (!strcmp(dot, ".rtbw"))
        c->dtz = false;
    else if (!strcmp(dot, ".rtbz"))
        c->dtz = true;
    else
        return tb_fail(c, "not a table file name");
    int black = 0;
    for (const char *p = name; p < dot; p++) {
        if (*p == 'v' && !black) {
            black = 8;
            continue;
        }
        const char *t = *p ? strchr(TYPES, *p) : NULL;
        if (!t)
            return tb_fail(c, "not a table file name");
        c->count[(int)(t - TYPES + 1) | black]++;
        c->num++;
    }
    if (!black || c->count[6] != 1 || c->count[14] != 1 || c->num > MAX_PIECES || c->num < 3)
        return tb_fail(c, "not a table file name");
    c->symmetric = !memcmp(c->count, c->count + 8, 8 * sizeof *c->count);
    c->pawns_table = c->count[1] + c->count[9] > 0;
    c->tables = c->pawns_table ? 4 : 1;
    if (c->pawns_table) {
        /* the side with fewer pawns (but some) leads */
        int w = c->count[1], b = c->count[9];
        bool swap = b && (!w || w > b);
        c->pawns[0] = swap ? b : w;
        c->pawns[1] = swap ? w : b;
    } else {
        int single = 0;
        for (int i = 0; i < 16; i++)
            single += c->count[i] == 1;
        c->kk_enc = single == 2;
    }
    return true;
}

/* Placements of the leading pawns when the first of them stands on file f (0..3): the
 * others go on squares of lower order, the order of the square on rank 2 + r of file f
 * being 47 - 12 f - 2 r. */
static uint64_t leading_pawn_placements(int pawns, int f)
{
    uint64_t s = 0;
    for (int r = 0; r < 6; r++)
        s += choose(47 - 12 * f - 2 * r, pawns - 1);
    return s;
}

/* The piece and order nibbles of sub-table t for one side (shift 0 or 4): they must list
 * the file's material with like pieces together and the leading group first; the order
 * must place every group once. Sets the sub-table's number of positions. */
static bool check_encoding(Checker *c, const uint8_t *tb, int t, int shift, Sub *s)
{
    bool more_pawns = c->pawns_table && c->pawns[1] > 0;
    int pieces[MAX_PIECES], seen[16] = {0};
    for (int i = 0; i < c->num; i++) {
        pieces[i] = (tb[i + 1 + more_pawns] >> shift) & 0x0f;
        if (i > 0 && pieces[i] != pieces[i - 1] && seen[pieces[i]])
            return tb_fail(c, "piece list of sub-table %d: like pieces apart", t);
        seen[pieces[i]]++;
    }
    for (int i = 0; i < 16; i++)
        if (seen[i] != c->count[i])
            return tb_fail(c, "piece list of sub-table %d does not match the material", t);
    int order = (tb[0] >> shift) & 0x0f;
    int order2 = more_pawns ? (tb[1] >> shift) & 0x0f : 0x0f;
    int lead = c->pawns_table ? c->pawns[0] : c->kk_enc ? 2 : 3;
    for (int i = 0; i < lead; i++) {
        bool ok = c->pawns_table
                    ? (pieces[i] & 7) == 1 && pieces[i] == pieces[0] && seen[pieces[0]] == lead
                    : seen[pieces[i]] == 1;
        if (!ok)
            return tb_fail(c, "leading pieces of sub-table %d are not what the encoding needs", t);
    }
    int k = lead;
    if (more_pawns) {
        for (int i = k; i < k + c->pawns[1]; i++)
            if ((pieces[i] & 7) != 1 || pieces[i] == pieces[0])
                return tb_fail(c, "second pawn group of sub-table %d is not the other side's pawns",
                               t);
        k += c->pawns[1];
    }
    int groups = 1 + more_pawns, norm[MAX_PIECES] = {0};
    for (int i = k; i < c->num; i += norm[i], groups++)
        for (int j = i; j < c->num && pieces[j] == pieces[i]; j++)
            norm[i]++;
    if (order >= groups || (more_pawns && (order2 >= groups || order2 == order)))
        return tb_fail(c, "encoding order of sub-table %d out of range", t);
    uint64_t f = 1;
    int free_squares = 64 - k;
    for (int i = 0; i < groups; i++) {
        uint64_t factor;
        if (i == order)
            factor = c->pawns_table ? leading_pawn_placements(lead, t) : c->kk_enc ? 462 : 31332;
        else if (i == order2)
            factor = choose(48 - lead, c->pawns[1]);
        else {
            factor = choose(free_squares, norm[k]);
            free_squares -= norm[k];
            k += norm[k];
        }
        f *= factor;
    }
    s->values = f;
    return true;
}

/* DTZ value maps at *off (after every sub-table header): four per sub-table that has
 * them, each a length and that many entries of 1 or 2 bytes. Fathom keeps their offsets
 * from the first map in 16 bits. */
static bool read_maps(Checker *c, uint64_t *off)
{
    uint64_t start = *off;
    for (int t = 0; t < c->tables; t++) {
        Sub *s = &c->sub[t];
        if (!(s->flags & 2))
            continue;
        bool wide = s->flags & 16;
        if (wide)
            *off += *off & 1;
        uint32_t longest = 0;
        for (int i = 0; i < 4; i++) {
            const uint8_t *p = tb_at(c, *off, wide ? 2 : 1);
            if (!p)
                return false;
            uint64_t n = wide ? tb_le16(p) : p[0];
            uint64_t entry = wide ? (*off + 2 - start) / 2 : *off + 1 - start;
            if (entry > 0xffff)
                return tb_fail(c, "DTZ maps longer than the prober can address");
            s->map_len[i] = (uint32_t)n;
            longest = n > longest ? (uint32_t)n : longest;
            *off += (wide ? 2 : 1) * (n + 1);
        }
        if (!(s->flags & 0x80) && s->max_literal >= longest)
            return tb_fail(c, "sub-table %d: value %u lies outside its DTZ maps", t,
                           s->max_literal);
    }
    *off += *off & 1;
    return *off <= c->src->size || tb_fail(c, "DTZ maps run past the end of the file");
}

static uint64_t index_entries(const Sub *s)
{
    return (s->values + ((uint64_t)1 << s->idx_bits) - 1) >> s->idx_bits;
}

/* The index and the block sizes of one sub-table agree: entry m stands for the value at
 * m * 2^idx_bits + 2^(idx_bits - 1) and names the block that holds it and its place
 * there; the blocks hold the sub-table's values exactly. The last entry's value may lie
 * past the end: its block then counts on through the padding entries of the size table
 * (which the prober walks back over), and only the values before the end are used. */
static bool check_index(Checker *c, int t, const Sub *s)
{
    uint64_t entries = index_entries(s);
    const uint8_t *sizes = tb_at(c, s->sizes_off, 2 * (uint64_t)s->blocks);
    if (!sizes)
        return false;
    uint64_t total = 0;
    for (uint32_t b = 0; b < s->real_blocks; b++)
        total += tb_le16(sizes + 2 * (uint64_t)b) + 1;
    if (total != s->values)
        return tb_fail(c, "sub-table %d: the blocks hold %llu values, the table has %llu", t,
                    (unsigned long long)total, (unsigned long long)s->values);
    const uint8_t *index = tb_at(c, s->index_off, 6 * entries);
    if (!index)
        return false;
    sizes = tb_at(c, s->sizes_off, 2 * (uint64_t)s->blocks); /* the buffer may have moved */
    if (!sizes)
        return false;
    uint64_t half = (uint64_t)1 << (s->idx_bits - 1), start = 0; /* first value of block b */
    uint32_t b = 0;
    for (uint64_t m = 0; m < entries; m++) {
        uint32_t block = tb_le32(index + 6 * m), at_value = tb_le16(index + 6 * m + 4);
        uint64_t target = (m << s->idx_bits) + half;
        bool inside = target < s->values;
        if (block < b || block > (inside ? s->real_blocks - 1 : s->blocks))
            return tb_fail(c, "sub-table %d: index entry %llu names block %u", t,
                           (unsigned long long)m, block);
        for (; b < block; b++)
            start += tb_le16(sizes + 2 * (uint64_t)b) + 1;
        if (start + at_value != target || (inside && at_value > tb_le16(sizes + 2 * (uint64_t)b)))
            return tb_fail(c, "sub-table %d: index entry %llu does not match the block sizes", t,
                        (unsigned long long)m);
    }
    return true;
}

static bool check(Checker *c, const char *name, TbWalk walk)
{
    if (!parse_name(c, name))
        return false;
    const uint8_t *p = tb_at(c, 0, 5);
    if (!p)
        return false;
    if (tb_le32(p) != (c->dtz ? DTZ_MAGIC : WDL_MAGIC))
        return tb_fail(c, "bad magic number");
    if (!!(p[4] & 2) != c->pawns_table)
        return tb_fail(c, "header says %s pawns", c->pawns_table ? "no" : "there are");
    c->split = !c->dtz && (p[4] & 1);
    if (!c->dtz && c->split == c->symmetric)
        return tb_fail(c, "header's sides to move do not fit the material");
    if (c->src->size % 64 != 16)
        return tb_fail(c, "size is not 16 past a multiple of 64 (truncated?)");
    uint64_t off = 5;
    int per = c->num + 1 + (c->pawns_table && c->pawns[1] > 0);
    for (int t = 0; t < c->tables; t++) {
        if (!(p = tb_at(c, off, (uint64_t)per)))
            return false;
        if (!check_encoding(c, p, t, 0, &c->sub[t]))
            return false;
        if (c->split && !(p = tb_at(c, off, (uint64_t)per)))
            return false;
        if (c->split && !check_encoding(c, p, t, 4, &c->sub[c->tables + t]))
            return false;
        off += (uint64_t)per;
    }
    off += off & 1;
    int sides = c->split ? 2 : 1;
    for (int t = 0; t < c->tables; t++)
        for (int side = 0; side < sides; side++)
            if (!tbcode_read_pairs(c, &off, t, &c->sub[side * c->tables + t]))
                return false;
    if (c->dtz && !read_maps(c, &off))
        return false;
    /* Index tables, then block sizes, then the blocks (each at a multiple of 64 bytes),
     * sub-table by sub-table in the order t, side. */
    for (int pass = 0; pass < 3; pass++)
        for (int t = 0; t < c->tables; t++)
            for (int side = 0; side < sides; side++) {
                Sub *s = &c->sub[side * c->tables + t];
                bool constant = s->flags & 0x80;
                if (pass == 0) {
                    s->index_off = off;
                    off += constant ? 0 : 6 * index_entries(s);
                } else if (pass == 1) {
                    s->sizes_off = off;
                    off += constant ? 0 : 2 * (uint64_t)s->blocks;
                } else {
                    off = (off + 63) & ~(uint64_t)63;
                    s->data_off = off;
                    off += constant ? 0 : (uint64_t)s->real_blocks << s->block_bits;
                }
                if (off > c->src->size)
                    return tb_fail(c, "sections run past the end of the file");
            }
    off = (off + 63) & ~(uint64_t)63;
    if (off + 16 != c->src->size)
        return tb_fail(c, "sections end at byte %llu, the checksum starts at %llu",
                       (unsigned long long)off, (unsigned long long)(c->src->size - 16));
    uint32_t largest = 0;
    for (int i = 0; i < sides * c->tables; i++)
        if (!(c->sub[i].flags & 0x80) && c->sub[i].block_bits < 31
            && ((uint32_t)1 << c->sub[i].block_bits) > largest)
            largest = (uint32_t)1 << c->sub[i].block_bits;
    c->block = malloc((size_t)largest + 8);
    if (!c->block)
        return tb_fail(c, "out of memory");
    for (int i = 0; i < sides * c->tables; i++) {
        Sub *s = &c->sub[i];
        c->stats.values += s->values;
        if (s->flags & 0x80)
            continue;
        c->stats.blocks += s->real_blocks;
        if (!check_index(c, i % c->tables, s) || !tbcode_walk_blocks(c, i % c->tables, s, walk))
            return false;
    }
    return true;
}

bool tbfile_check(const char *name, const TbSource *src, TbWalk walk, char *why, size_t why_size,
                  TbFileStats *stats)
{
    Checker *c = calloc(1, sizeof *c);
    if (why_size)
        why[0] = '\0';
    if (!c) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    c->src = src;
    c->why = why;
    c->why_size = why_size;
    bool ok = check(c, name, walk);
    if (stats)
        *stats = c->stats;
    free(c->buf);
    free(c->block);
    free(c);
    return ok;
}

typedef struct {
    int fd;
} FileSource;

static bool pread_all(void *ctx, uint64_t off, void *buf, size_t len)
{
    FileSource *f = ctx;
    uint8_t *p = buf;
    while (len) {
        ssize_t n = pread(f->fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n, off += (uint64_t)n, len -= (size_t)n;
    }
    return true;
}

bool tbfile_check_path(const char *path, TbWalk walk, char *why, size_t why_size,
                       TbFileStats *stats)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    FileSource f = {open(path, O_RDONLY | O_CLOEXEC)};
    struct stat st;
    if (f.fd < 0 || fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_size, f.fd < 0 ? "cannot be read" : "not a regular file");
        if (f.fd >= 0)
            close(f.fd);
        return false;
    }
    const char *name = strrchr(path, '/');
    TbSource src = {pread_all, &f, (uint64_t)st.st_size};
    bool ok = tbfile_check(name ? name + 1 : path, &src, walk, why, why_size, stats);
    close(f.fd);
    return ok;
}

/* Syzygy table files checked against their own structure: see tbfile.h, and
 * docs/tablebases.md ("The file format") for the layout this follows. */
#define _GNU_SOURCE
#include "formats/tbfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PIECES 7
#define MAX_SYMS 4096     /* symbol numbers have 12 bits; Fathom asserts fewer than this */
#define MAX_CODE_LEN 32   /* Fathom refills its 64-bit window 32 bits at a time */
#define MAX_IDX_BITS 30   /* keeps Fathom's int arithmetic within a block's values exact */
#define MAX_BLOCK_BITS 24  /* 16 MB; the 3-4-piece files use 32 B to 1 KB */
#define MAX_EXPANSION 256 /* Fathom keeps a symbol's length (values - 1) in a byte */
#define MAX_SUBS 8        /* 4 pawn files x 2 sides to move */
#define LITERAL 0xfff     /* second half of a symbol that stands for itself */

static const uint32_t WDL_MAGIC = 0x5d23e871, DTZ_MAGIC = 0xa50c66d7;

/* One sub-table: one side to move (WDL tables of unequal material have two) and, with
 * pawns, one file of the leading pawn. */
typedef struct {
    uint8_t flags;           /* 0x80 constant; DTZ: 1 side to move, 2 mapped, 16 wide map */
    uint8_t const_value;
    uint8_t block_bits, idx_bits, min_len, max_len;
    uint32_t real_blocks, blocks, syms;
    uint64_t values;         /* positions: the product of the encoding's factors */
    uint64_t index_off, sizes_off, data_off;
    uint64_t base[MAX_CODE_LEN + 1];  /* smallest left-aligned code of each length */
    uint32_t first[MAX_CODE_LEN + 1]; /* symbol of that code */
    uint8_t len[MAX_SYMS];            /* values a symbol stands for, minus one */
    uint32_t max_literal;
    uint32_t map_len[4];     /* DTZ: the four value maps */
} Sub;

typedef struct {
    const TbSource *src;
    uint8_t *buf;            /* the file's first `have` bytes */
    uint64_t have;
    char *why;
    size_t why_size;
    bool dtz, pawns_table, symmetric, kk_enc, split;
    int num, pawns[2];       /* pieces; leading pawns, other pawns */
    int count[16];           /* pieces by code: 1..6 white P N B R Q K, 9..14 black */
    int tables;              /* 1, or 4 with pawns */
    Sub sub[MAX_SUBS];       /* [t] first side, [tables + t] second side */
    uint8_t *block;          /* one compressed block and the bytes after it */
    TbFileStats stats;
} Checker;

static bool fail(Checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (c->why_size) {
        vsnprintf(c->why, c->why_size, fmt, ap);
    }
    va_end(ap);
    return false;
}

/* The bytes [off, off + len) of the file, read into the prefix buffer; NULL (with why)
 * when they lie past the end or cannot be read. The pointer lasts until the next call. */
static const uint8_t *at(Checker *c, uint64_t off, uint64_t len)
{
    if (off > c->src->size || len > c->src->size - off) {
        fail(c, "a section runs past the end of the file (at byte %llu)", (unsigned long long)off);
        return NULL;
    }
    uint64_t end = off + len;
    if (end > c->have) {
        uint64_t want = end < 4096 ? 4096 : end + end / 2;
        if (want > c->src->size)
            want = c->src->size;
        uint8_t *grown = realloc(c->buf, want ? want : 1);
        if (!grown) {
            fail(c, "out of memory");
            return NULL;
        }
        c->buf = grown;
        if (!c->src->read(c->src->ctx, c->have, c->buf + c->have, want - c->have)) {
            fail(c, "cannot be read");
            return NULL;
        }
        c->have = want;
    }
    return c->buf + off;
}

static uint32_t le16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
    return le16(p) | le16(p + 2) << 16;
}

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
        return fail(c, "not a table file name");
    const char *dot = name + n - 5;
    if (!strcmp(dot, ".rtbw"))
        c->dtz = false;
    else if (!strcmp(dot, ".rtbz"))
        c->dtz = true;
    else
        return fail(c, "not a table file name");
    int black = 0;
    for (const char *p = name; p < dot; p++) {
        if (*p == 'v' && !black) {
            black = 8;
            continue;
        }
        const char *t = *p ? strchr(TYPES, *p) : NULL;
        if (!t)
            return fail(c, "not a table file name");
        c->count[(int)(t - TYPES + 1) | black]++;
        c->num++;
    }
    if (!black || c->count[6] != 1 || c->count[14] != 1 || c->num > MAX_PIECES || c->num < 3)
        return fail(c, "not a table file name");
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
            return fail(c, "piece list of sub-table %d: like pieces apart", t);
        seen[pieces[i]]++;
    }
    for (int i = 0; i < 16; i++)
        if (seen[i] != c->count[i])
            return fail(c, "piece list of sub-table %d does not match the material", t);
    int order = (tb[0] >> shift) & 0x0f;
    int order2 = more_pawns ? (tb[1] >> shift) & 0x0f : 0x0f;
    int lead = c->pawns_table ? c->pawns[0] : c->kk_enc ? 2 : 3;
    for (int i = 0; i < lead; i++) {
        bool ok = c->pawns_table ? (pieces[i] & 7) == 1 && pieces[i] == pieces[0] && seen[pieces[0]] == lead
                                 : seen[pieces[i]] == 1;
        if (!ok)
            return fail(c, "leading pieces of sub-table %d are not what the encoding needs", t);
    }
    int k = lead;
    if (more_pawns) {
        for (int i = k; i < k + c->pawns[1]; i++)
            if ((pieces[i] & 7) != 1 || pieces[i] == pieces[0])
                return fail(c, "second pawn group of sub-table %d is not the other side's pawns", t);
        k += c->pawns[1];
    }
    int groups = 1 + more_pawns, norm[MAX_PIECES] = {0};
    for (int i = k; i < c->num; i += norm[i], groups++)
        for (int j = i; j < c->num && pieces[j] == pieces[i]; j++)
            norm[i]++;
    if (order >= groups || (more_pawns && (order2 >= groups || order2 == order)))
        return fail(c, "encoding order of sub-table %d out of range", t);
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

/* The canonical code and the symbol tree of a sub-table's header at *off. */
static bool read_pairs(Checker *c, uint64_t *off, int t, Sub *s)
{
    const uint8_t *p = at(c, *off, 1);
    if (!p)
        return false;
    s->flags = p[0];
    if (s->flags & 0x80) {
        if (!(p = at(c, *off, 2)))
            return false;
        s->const_value = p[1];
        if (!c->dtz && s->const_value > 4)
            return fail(c, "sub-table %d: constant value %d is no WDL value", t, s->const_value);
        *off += 2;
        return true;
    }
    if (!(p = at(c, *off, 10)))
        return false;
    s->block_bits = p[1];
    s->idx_bits = p[2];
    s->real_blocks = le32(p + 4);
    s->blocks = s->real_blocks + p[3];
    s->max_len = p[8];
    s->min_len = p[9];
    if (s->min_len < 1 || s->min_len > s->max_len || s->max_len > MAX_CODE_LEN)
        return fail(c, "sub-table %d: code lengths %d..%d out of range", t, s->min_len, s->max_len);
    if (s->idx_bits < 1 || s->idx_bits > MAX_IDX_BITS || s->block_bits > MAX_BLOCK_BITS || s->real_blocks == 0)
        return fail(c, "sub-table %d: block or index parameters out of range", t);
    int h = s->max_len - s->min_len + 1;
    if (!(p = at(c, *off + 10, 2 * (uint64_t)h + 2)))
        return false;
    for (int l = s->min_len; l <= s->max_len; l++)
        s->first[l] = le16(p + 2 * (l - s->min_len));
    s->syms = le16(p + 2 * h);
    if (s->syms == 0 || s->syms >= MAX_SYMS)
        return fail(c, "sub-table %d: %u symbols", t, s->syms);
    uint64_t sym_off = *off + 12 + 2 * (uint64_t)h;
    if (!(p = at(c, sym_off, 3 * (uint64_t)s->syms)))
        return false;
    *off = sym_off + 3 * (uint64_t)s->syms + (s->syms & 1);

    /* The pair tree, depth first without recursion: 0 unseen, 1 on the path, 2 done. */
    static _Thread_local uint8_t state[MAX_SYMS];
    static _Thread_local uint16_t stack[MAX_SYMS + 1];
    uint16_t expansion[MAX_SYMS];
    memset(state, 0, s->syms);
    s->max_literal = 0;
    for (uint32_t root = 0; root < s->syms; root++) {
        int depth = 0;
        stack[depth++] = (uint16_t)root;
        while (depth) {
            uint32_t x = stack[depth - 1];
            const uint8_t *w = p + 3 * x;
            uint32_t s1 = ((uint32_t)(w[1] & 0x0f) << 8) | w[0], s2 = ((uint32_t)w[2] << 4) | (w[1] >> 4);
            if (state[x] == 2) {
                depth--;
                continue;
            }
            if (s2 == LITERAL) {
                uint32_t v = c->dtz ? s1 : w[0];
                if (!c->dtz && v > 4)
                    return fail(c, "sub-table %d: symbol %u has value %u, no WDL value", t, x, v);
                if (v > s->max_literal)
                    s->max_literal = v;
                expansion[x] = 1;
                state[x] = 2;
                depth--;
                continue;
            }
            if (s1 >= s->syms || s2 >= s->syms)
                return fail(c, "sub-table %d: symbol %u refers past the symbol table", t, x);
            state[x] = 1;
            uint32_t next = state[s1] != 2 ? s1 : state[s2] != 2 ? s2 : MAX_SYMS;
            if (next < MAX_SYMS) {
                if (state[next] == 1)
                    return fail(c, "sub-table %d: the symbol tree has a cycle through symbol %u", t, next);
                stack[depth++] = (uint16_t)next;
                continue;
            }
            uint32_t e = (uint32_t)expansion[s1] + expansion[s2];
            if (e > MAX_EXPANSION)
                return fail(c, "sub-table %d: symbol %u stands for %u values", t, x, e);
            expansion[x] = (uint16_t)e;
            state[x] = 2;
            depth--;
        }
    }
    for (uint32_t x = 0; x < s->syms; x++)
        s->len[x] = (uint8_t)(expansion[x] - 1);

    /* The canonical code as the decoder builds it (64-bit wrap-around included); then
     * every bit pattern must decode to an existing symbol. */
    s->base[s->max_len] = 0;
    for (int l = s->max_len - 1; l >= s->min_len; l--)
        s->base[l] = (s->base[l + 1] + s->first[l] - s->first[l + 1]) / 2;
    for (int l = s->min_len; l <= s->max_len; l++)
        s->base[l] <<= 64 - l;
    uint64_t upper = UINT64_MAX; /* the largest code not taken by a shorter length */
    bool all_taken = false;
    for (int l = s->min_len; l <= s->max_len && !all_taken; l++) {
        if (s->base[l] <= upper) {
            uint64_t last = s->first[l] + ((upper - s->base[l]) >> (64 - l));
            if (last >= s->syms)
                return fail(c, "sub-table %d: codes of length %d decode past the symbol table", t, l);
            if (s->base[l] == 0)
                all_taken = true;
            else
                upper = s->base[l] - 1;
        }
    }
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
            const uint8_t *p = at(c, *off, wide ? 2 : 1);
            if (!p)
                return false;
            uint64_t n = wide ? le16(p) : p[0];
            uint64_t entry = wide ? (*off + 2 - start) / 2 : *off + 1 - start;
            if (entry > 0xffff)
                return fail(c, "DTZ maps longer than the prober can address");
            s->map_len[i] = (uint32_t)n;
            longest = n > longest ? (uint32_t)n : longest;
            *off += (wide ? 2 : 1) * (n + 1);
        }
        if (!(s->flags & 0x80) && s->max_literal >= longest)
            return fail(c, "sub-table %d: value %u lies outside its DTZ maps", t, s->max_literal);
    }
    *off += *off & 1;
    return *off <= c->src->size || fail(c, "DTZ maps run past the end of the file");
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
    const uint8_t *sizes = at(c, s->sizes_off, 2 * (uint64_t)s->blocks);
    if (!sizes)
        return false;
    uint64_t total = 0;
    for (uint32_t b = 0; b < s->real_blocks; b++)
        total += le16(sizes + 2 * (uint64_t)b) + 1;
    if (total != s->values)
        return fail(c, "sub-table %d: the blocks hold %llu values, the table has %llu", t,
                    (unsigned long long)total, (unsigned long long)s->values);
    const uint8_t *index = at(c, s->index_off, 6 * entries);
    if (!index)
        return false;
    sizes = at(c, s->sizes_off, 2 * (uint64_t)s->blocks); /* the buffer may have moved */
    if (!sizes)
        return false;
    uint64_t half = (uint64_t)1 << (s->idx_bits - 1), start = 0; /* first value of block b */
    uint32_t b = 0;
    for (uint64_t m = 0; m < entries; m++) {
        uint32_t block = le32(index + 6 * m), at_value = le16(index + 6 * m + 4);
        uint64_t target = (m << s->idx_bits) + half;
        bool inside = target < s->values;
        if (block < b || block > (inside ? s->real_blocks - 1 : s->blocks))
            return fail(c, "sub-table %d: index entry %llu names block %u", t, (unsigned long long)m, block);
        for (; b < block; b++)
            start += le16(sizes + 2 * (uint64_t)b) + 1;
        if (start + at_value != target || (inside && at_value > le16(sizes + 2 * (uint64_t)b)))
            return fail(c, "sub-table %d: index entry %llu does not match the block sizes", t,
                        (unsigned long long)m);
    }
    return true;
}

/* Decodes block b as the prober would for its last value and checks that the symbol
 * holding it lies within the block's own bytes (and so within the file). The last
 * symbol may stand for more values than the block has left: the rest are not used. */
static bool walk_block(Checker *c, int t, const Sub *s, uint32_t b, uint32_t values)
{
    uint64_t block_len = (uint64_t)1 << s->block_bits;
    uint64_t start = s->data_off + ((uint64_t)b << s->block_bits);
    uint64_t avail = c->src->size - start < block_len + 8 ? c->src->size - start : block_len + 8;
    if (!c->src->read(c->src->ctx, start, c->block, avail))
        return fail(c, "cannot be read");
    c->stats.walked++;
    uint64_t pos = 8, used = 0, code = 0;
    if (avail < 8)
        return fail(c, "sub-table %d: block %u reads past the end of the file", t, b);
    for (int i = 0; i < 8; i++)
        code = code << 8 | c->block[i];
    uint32_t left = values, bit_count = 0;
    for (;;) {
        int l = s->min_len;
        while (code < s->base[l])
            l++;
        uint32_t sym = s->first[l] + (uint32_t)((code - s->base[l]) >> (64 - l));
        uint32_t n = s->len[sym] + 1u;
        used += (uint64_t)l;
        if (n >= left) /* the symbol holding the block's last value (it may run on) */
            break;
        left -= n;
        if (used > 8 * block_len)
            return fail(c, "sub-table %d: block %u runs past its end", t, b);
        code <<= l;
        bit_count += (uint32_t)l;
        if (bit_count >= 32) {
            bit_count -= 32;
            if (pos + 4 > avail)
                return fail(c, "sub-table %d: block %u runs past its end", t, b);
            uint32_t next = (uint32_t)c->block[pos] << 24 | (uint32_t)c->block[pos + 1] << 16
                            | (uint32_t)c->block[pos + 2] << 8 | c->block[pos + 3];
            code |= (uint64_t)next << bit_count;
            pos += 4;
        }
    }
    if (used > 8 * block_len)
        return fail(c, "sub-table %d: block %u runs past its end", t, b);
    return true;
}

static bool walk_blocks(Checker *c, int t, const Sub *s, TbWalk walk)
{
    const uint8_t *sizes = at(c, s->sizes_off, 2 * (uint64_t)s->blocks);
    if (!sizes)
        return false;
    uint16_t *copy = malloc(2 * (size_t)s->real_blocks);
    if (!copy)
        return fail(c, "out of memory");
    for (uint32_t b = 0; b < s->real_blocks; b++)
        copy[b] = (uint16_t)le16(sizes + 2 * (uint64_t)b);
    bool ok = true;
    for (uint32_t b = 0; b < s->real_blocks && ok; b++) {
        uint64_t start = s->data_off + ((uint64_t)b << s->block_bits);
        /* a decode reads 8 bytes, then 4 for every 32 bits of at most max_len per value */
        uint64_t worst = 8 + 4 * ((uint64_t)copy[b] * s->max_len / 32 + 1);
        if (walk == TBFILE_WALK_ALL || start + worst > c->src->size)
            ok = walk_block(c, t, s, b, copy[b] + 1u);
    }
    free(copy);
    return ok;
}

static bool check(Checker *c, const char *name, TbWalk walk)
{
    if (!parse_name(c, name))
        return false;
    const uint8_t *p = at(c, 0, 5);
    if (!p)
        return false;
    if (le32(p) != (c->dtz ? DTZ_MAGIC : WDL_MAGIC))
        return fail(c, "bad magic number");
    if (!!(p[4] & 2) != c->pawns_table)
        return fail(c, "header says %s pawns", c->pawns_table ? "no" : "there are");
    c->split = !c->dtz && (p[4] & 1);
    if (!c->dtz && c->split == c->symmetric)
        return fail(c, "header's sides to move do not fit the material");
    if (c->src->size % 64 != 16)
        return fail(c, "size is not 16 past a multiple of 64 (truncated?)");
    uint64_t off = 5;
    int per = c->num + 1 + (c->pawns_table && c->pawns[1] > 0);
    for (int t = 0; t < c->tables; t++) {
        if (!(p = at(c, off, (uint64_t)per)))
            return false;
        if (!check_encoding(c, p, t, 0, &c->sub[t]))
            return false;
        if (c->split && !(p = at(c, off, (uint64_t)per)))
            return false;
        if (c->split && !check_encoding(c, p, t, 4, &c->sub[c->tables + t]))
            return false;
        off += (uint64_t)per;
    }
    off += off & 1;
    int sides = c->split ? 2 : 1;
    for (int t = 0; t < c->tables; t++)
        for (int side = 0; side < sides; side++)
            if (!read_pairs(c, &off, t, &c->sub[side * c->tables + t]))
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
                    return fail(c, "sections run past the end of the file");
            }
    off = (off + 63) & ~(uint64_t)63;
    if (off + 16 != c->src->size)
        return fail(c, "sections end at byte %llu, the checksum starts at %llu", (unsigned long long)off,
                    (unsigned long long)(c->src->size - 16));
    uint32_t largest = 0;
    for (int i = 0; i < sides * c->tables; i++)
        if (!(c->sub[i].flags & 0x80) && c->sub[i].block_bits < 31 && ((uint32_t)1 << c->sub[i].block_bits) > largest)
            largest = (uint32_t)1 << c->sub[i].block_bits;
    c->block = malloc((size_t)largest + 8);
    if (!c->block)
        return fail(c, "out of memory");
    for (int i = 0; i < sides * c->tables; i++) {
        Sub *s = &c->sub[i];
        c->stats.values += s->values;
        if (s->flags & 0x80)
            continue;
        c->stats.blocks += s->real_blocks;
        if (!check_index(c, i % c->tables, s) || !walk_blocks(c, i % c->tables, s, walk))
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

bool tbfile_check_path(const char *path, TbWalk walk, char *why, size_t why_size, TbFileStats *stats)
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

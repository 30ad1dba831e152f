/* The state of one Syzygy table-file check (tbfile.c, tbcode.c): the file's bytes, read
 * on demand with a bounds check on every access, the first problem found, and what was
 * learned of each sub-table. Internal to the table-file checker: tbfile.h is its
 * interface to the rest of the program. */
#ifndef SAAVEDRA_TBSTATE_H
#define SAAVEDRA_TBSTATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tablebase/tbsource.h"

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

static inline bool tb_fail(Checker *c, const char *fmt, ...)
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
static inline const uint8_t *tb_at(Checker *c, uint64_t off, uint64_t len)
{
    if (off > c->src->size || len > c->src->size - off) {
        tb_fail(c, "a section runs past the end of the file (at byte %llu)",
                (unsigned long long)off);
        return NULL;
    }
    uint64_t end = off + len;
    if (end > c->have) {
        uint64_t want = end < 4096 ? 4096 : end + end / 2;
        if (want > c->src->size)
            want = c->src->size;
        uint8_t *grown = realloc(c->buf, want ? want : 1);
        if (!grown) {
            tb_fail(c, "out of memory");
            return NULL;
        }
        c->buf = grown;
        if (!c->src->read(c->src->ctx, c->have, c->buf + c->have, want - c->have)) {
            tb_fail(c, "cannot be read");
            return NULL;
        }
        c->have = want;
    }
    return c->buf + off;
}

static inline uint32_t tb_le16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t tb_le32(const uint8_t *p)
{
    return tb_le16(p) | tb_le16(p + 2) << 16;
}

#endif

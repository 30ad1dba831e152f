/* Compression of a Syzygy sub-table: see tbcode.h. */
#include "tablebase/tbcode.h"

#include <string.h>

/* The canonical code and the symbol tree of a sub-table's header at *off. */
bool tbcode_read_pairs(Checker *c, uint64_t *off, int t, Sub *s)
{
    const uint8_t *p = tb_at(c, *off, 1);
    if (!p)
        return false;
    s->flags = p[0];
    if (s->flags & 0x80) {
        if (!(p = tb_at(c, *off, 2)))
            return false;
        s->const_value = p[1];
        if (!c->dtz && s->const_value > 4)
            return tb_fail(c, "sub-table %d: constant value %d is no WDL value", t, s->const_value);
        *off += 2;
        return true;
    }
    if (!(p = tb_at(c, *off, 10)))
        return false;
    s->block_bits = p[1];
    s->idx_bits = p[2];
    s->real_blocks = tb_le32(p + 4);
    s->blocks = s->real_blocks + p[3];
    s->max_len = p[8];
    s->min_len = p[9];
    if (s->min_len < 1 || s->min_len > s->max_len || s->max_len > MAX_CODE_LEN)
        return tb_fail(c, "sub-table %d: code lengths %d..%d out of range", t, s->min_len,
                       s->max_len);
    if (s->idx_bits < 1 || s->idx_bits > MAX_IDX_BITS || s->block_bits > MAX_BLOCK_BITS
        || s->real_blocks == 0)
        return tb_fail(c, "sub-table %d: block or index parameters out of range", t);
    int h = s->max_len - s->min_len + 1;
    if (!(p = tb_at(c, *off + 10, 2 * (uint64_t)h + 2)))
        return false;
    for (int l = s->min_len; l <= s->max_len; l++)
        s->first[l] = tb_le16(p + 2 * (l - s->min_len));
    s->syms = tb_le16(p + 2 * h);
    if (s->syms == 0 || s->syms >= MAX_SYMS)
        return tb_fail(c, "sub-table %d: %u symbols", t, s->syms);
    uint64_t sym_off = *off + 12 + 2 * (uint64_t)h;
    if (!(p = tb_at(c, sym_off, 3 * (uint64_t)s->syms)))
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
            uint32_t s1 = ((uint32_t)(w[1] & 0x0f) << 8) | w[0],
                     s2 = ((uint32_t)w[2] << 4) | (w[1] >> 4);
            if (state[x] == 2) {
                depth--;
                continue;
            }
            if (s2 == LITERAL) {
                uint32_t v = c->dtz ? s1 : w[0];
                if (!c->dtz && v > 4)
                    return tb_fail(c, "sub-table %d: symbol %u has value %u, no WDL value", t, x,
                                   v);
                if (v > s->max_literal)
                    s->max_literal = v;
                expansion[x] = 1;
                state[x] = 2;
                depth--;
                continue;
            }
            if (s1 >= s->syms || s2 >= s->syms)
                return tb_fail(c, "sub-table %d: symbol %u refers past the symbol table", t, x);
            state[x] = 1;
            uint32_t next = state[s1] != 2 ? s1 : state[s2] != 2 ? s2 : MAX_SYMS;
            if (next < MAX_SYMS) {
                if (state[next] == 1)
                    return tb_fail(c, "sub-table %d: the symbol tree has a cycle through symbol %u",
                                   t, next);
                stack[depth++] = (uint16_t)next;
                continue;
            }
            uint32_t e = (uint32_t)expansion[s1] + expansion[s2];
            if (e > MAX_EXPANSION)
                return tb_fail(c, "sub-table %d: symbol %u stands for %u values", t, x, e);
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
                return tb_fail(c, "sub-table %d: codes of length %d decode past the symbol table",
                               t, l);
            if (s->base[l] == 0)
                all_taken = true;
            else
                upper = s->base[l] - 1;
        }
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
        return tb_fail(c, "cannot be read");
    c->stats.walked++;
    uint64_t pos = 8, used = 0, code = 0;
    if (avail < 8)
        return tb_fail(c, "sub-table %d: block %u reads past the end of the file", t, b);
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
            return tb_fail(c, "sub-table %d: block %u runs past its end", t, b);
        code <<= l;
        bit_count += (uint32_t)l;
        if (bit_count >= 32) {
            bit_count -= 32;
            if (pos + 4 > avail)
                return tb_fail(c, "sub-table %d: block %u runs past its end", t, b);
            uint32_t next = (uint32_t)c->block[pos] << 24 | (uint32_t)c->block[pos + 1] << 16
                            | (uint32_t)c->block[pos + 2] << 8 | c->block[pos + 3];
            code |= (uint64_t)next << bit_count;
            pos += 4;
        }
    }
    if (used > 8 * block_len)
        return tb_fail(c, "sub-table %d: block %u runs past its end", t, b);
    return true;
}

bool tbcode_walk_blocks(Checker *c, int t, const Sub *s, TbWalk walk)
{
    const uint8_t *sizes = tb_at(c, s->sizes_off, 2 * (uint64_t)s->blocks);
    if (!sizes)
        return false;
    uint16_t *copy = malloc(2 * (size_t)s->real_blocks);
    if (!copy)
        return tb_fail(c, "out of memory");
    for (uint32_t b = 0; b < s->real_blocks; b++)
        copy[b] = (uint16_t)tb_le16(sizes + 2 * (uint64_t)b);
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

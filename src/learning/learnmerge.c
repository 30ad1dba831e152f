/* The learning file's merge rules: see learnmerge.h. */
#include "learning/learnmerge.h"

#include <stdlib.h>

#include "util/grow.h"

void learn_collect_position(void *ctx, const LearnPosition *p)
{
    LearnCollection *c = ctx;
    if (grow_array((void **)&c->pos, &c->pos_cap, (size_t)c->pos_count + 1, sizeof *p))
        c->pos[c->pos_count++] = *p;
    else
        c->failed = true;
}

void learn_collect_book(void *ctx, const LearnBookStat *b)
{
    LearnCollection *c = ctx;
    if (grow_array((void **)&c->book, &c->book_cap, (size_t)c->book_count + 1, sizeof *b))
        c->book[c->book_count++] = *b;
    else
        c->failed = true;
}

void learn_collection_free(LearnCollection *c)
{
    free(c->pos);
    free(c->book);
    c->pos = NULL;
    c->book = NULL;
    c->pos_count = c->book_count = 0;
    c->pos_cap = c->book_cap = 0;
}

typedef struct {
    LearnPosition p;
    int seq;
} SeqPosition;

static int cmp_seq_position(const void *a, const void *b)
{
    const SeqPosition *x = a, *y = b;
    if (x->p.key != y->p.key)
        return x->p.key < y->p.key ? -1 : 1;
    if (x->p.depth != y->p.depth)
        return x->p.depth > y->p.depth ? -1 : 1; /* deepest first */
    return y->seq - x->seq;                      /* then the latest */
}

static int cmp_depth_then_key(const void *a, const void *b)
{
    const SeqPosition *x = a, *y = b;
    if (x->p.depth != y->p.depth)
        return x->p.depth > y->p.depth ? -1 : 1;
    if (x->seq != y->seq)
        return y->seq - x->seq;
    return 0;
}

static int cmp_key(const void *a, const void *b)
{
    const SeqPosition *x = a, *y = b;
    return x->p.key < y->p.key ? -1 : x->p.key > y->p.key;
}

int learn_merge_positions(LearnPosition *p, int n, int max)
{
    if (n <= 0)
        return 0;
    SeqPosition *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return n < max ? n : max; /* no memory: keep the first ones unmerged */
    for (int i = 0; i < n; i++) {
        s[i].p = p[i];
        s[i].seq = i;
    }
    qsort(s, (size_t)n, sizeof *s, cmp_seq_position);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (kept == 0 || s[kept - 1].p.key != s[i].p.key)
            s[kept++] = s[i];
    if (kept > max) {
        qsort(s, (size_t)kept, sizeof *s, cmp_depth_then_key);
        kept = max;
        qsort(s, (size_t)kept, sizeof *s, cmp_key);
    }
    for (int i = 0; i < kept; i++)
        p[i] = s[i].p;
    free(s);
    return kept;
}

typedef struct {
    LearnBookStat b;
    uint32_t w, d, l;
} BookSum;

static int cmp_book(const void *a, const void *b)
{
    const LearnBookStat *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (int)x->code - (int)y->code;
}

static int cmp_book_games(const void *a, const void *b)
{
    const LearnBookStat *x = a, *y = b;
    long gx = (long)x->wins + x->draws + x->losses, gy = (long)y->wins + y->draws + y->losses;
    return gx != gy ? (gx > gy ? -1 : 1) : cmp_book(a, b);
}

int learn_merge_books(LearnBookStat *b, int n, int max)
{
    if (n <= 0)
        return 0;
    qsort(b, (size_t)n, sizeof *b, cmp_book);
    int kept = 0;
    for (int i = 0; i < n;) {
        uint32_t w = 0, d = 0, l = 0;
        int j = i;
        for (; j < n && b[j].key == b[i].key && b[j].code == b[i].code; j++) {
            w += b[j].wins;
            d += b[j].draws;
            l += b[j].losses;
        }
        /* Past the 16-bit counts: scale all three down, keeping their proportions. */
        uint32_t top = w > d ? (w > l ? w : l) : (d > l ? d : l);
        if (top > 65535) {
            w = (uint32_t)((uint64_t)w * 65535 / top);
            d = (uint32_t)((uint64_t)d * 65535 / top);
            l = (uint32_t)((uint64_t)l * 65535 / top);
        }
        LearnBookStat m = { b[i].key, b[i].code, (uint16_t)w, (uint16_t)d, (uint16_t)l };
        b[kept++] = m;
        i = j;
    }
    if (kept > max) {
        qsort(b, (size_t)kept, sizeof *b, cmp_book_games); /* the most played first */
        kept = max;
        qsort(b, (size_t)kept, sizeof *b, cmp_book);
    }
    return kept;
}

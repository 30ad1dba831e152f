/* Building an opening book from PGN: see bookbuild.h; the weight rules are in
 * docs/book-format.md. */
#include "toolkit/bookbuild.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/movecode.h"
#include "opening/book_format.h"
#include "opening/polykey.h"
#include "util/grow.h"

#define NONE UINT32_MAX
#define NEUTRAL_WEIGHT 50          /* annotated moves the games hardly know */
#define ANNOTATED_MIN_GAMES 5      /* ... "hardly": fewer games than this */
#define PATH_MAX_PLY 1024
#define PROGRESS_EVERY 512

enum {
    F_ANNOTATED = 1, F_WHITE = 2, /* the move is White's */
    F_BEST = 4, F_GOOD = 8, F_INTERESTING = 16, F_DUBIOUS = 32, F_NEVER = 64
};

typedef struct {
    uint32_t next;                 /* next move of the same position, or NONE */
    uint32_t count, wins, draws, losses;
    float eval_log_sum;            /* log2 of the line-end evaluation factors */
    uint32_t eval_n;
    int16_t explicit_weight;       /* -1: none */
    uint8_t code, flags;
} Entry;

typedef struct {
    uint64_t key;
    uint32_t first;                /* first Entry, or NONE */
} Node;

/* An annotation gathered during a game of the annotated file, applied at its end. */
typedef enum { OP_ANNOTATED, OP_FLAGS, OP_WEIGHT, OP_EVAL } OpKind;
typedef struct {
    uint32_t entry;
    OpKind kind;
    float value;
} Op;

#define VEC(T) struct { T *v; size_t n, cap; }

struct BookBuilder {
    BookBuildOptions opts;
    BookBuildStats stats;
    VEC(Node) nodes;
    VEC(Entry) entries;
    uint32_t *index;               /* open addressing: node + 1, 0 = empty */
    size_t index_mask;
    VEC(uint32_t) game;            /* game files: the entries of the current game */
    VEC(Op) ops;                   /* annotated file: the current game's annotations */
    bool out_of_memory;
};

#define PUSH(b, vec, item)                                                                \
    (grow_array((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof *(vec).v)                    \
         ? ((vec).v[(vec).n++] = (item), true)                                            \
         : ((b)->out_of_memory = true, false))

BookBuilder *bookbuild_new(const BookBuildOptions *opts)
{
    BookBuilder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->opts = *opts;
    if (b->opts.min_freq < 1)
        b->opts.min_freq = 1;
    b->index_mask = (1 << 16) - 1;
    if (!(b->index = calloc(b->index_mask + 1, sizeof *b->index))) {
        free(b);
        return NULL;
    }
    return b;
}

void bookbuild_free(BookBuilder *b)
{
    if (!b)
        return;
    free(b->nodes.v);
    free(b->entries.v);
    free(b->index);
    free(b->game.v);
    free(b->ops.v);
    free(b);
}

const BookBuildStats *bookbuild_stats(const BookBuilder *b)
{
    return &b->stats;
}

/* ---- positions and moves ---- */

static bool rehash(BookBuilder *b)
{
    size_t size = (b->index_mask + 1) * 2;
    uint32_t *index = calloc(size, sizeof *index);
    if (!index)
        return false;
    for (size_t i = 0; i < b->nodes.n; i++) {
        size_t s = b->nodes.v[i].key & (size - 1);
        while (index[s])
            s = (s + 1) & (size - 1);
        index[s] = (uint32_t)i + 1;
    }
    free(b->index);
    b->index = index;
    b->index_mask = size - 1;
    return true;
}

static uint32_t find_node(BookBuilder *b, uint64_t key)
{
    size_t s = key & b->index_mask; /* Zobrist keys are uniform already */
    for (; b->index[s]; s = (s + 1) & b->index_mask)
        if (b->nodes.v[b->index[s] - 1].key == key)
            return b->index[s] - 1;
    if (b->nodes.n >= UINT32_MAX - 1 || !PUSH(b, b->nodes, ((Node){ key, NONE })))
        return NONE;
    b->index[s] = (uint32_t)b->nodes.n;
    b->stats.positions = (uint32_t)b->nodes.n;
    if (b->nodes.n * 2 > b->index_mask && !rehash(b)) {
        b->out_of_memory = true;
        return NONE;
    }
    return (uint32_t)b->nodes.n - 1;
}

/* The entry of move m in pos, created when new; NONE when out of memory. */
static uint32_t find_entry(BookBuilder *b, const Position *pos, Move m)
{
    int code = movecode_encode(pos, m);
    uint32_t node = code < 0 ? NONE : find_node(b, polyglot_key(pos));
    if (node == NONE)
        return NONE;
    uint32_t last = NONE;
    for (uint32_t i = b->nodes.v[node].first; i != NONE; last = i, i = b->entries.v[i].next)
        if (b->entries.v[i].code == code)
            return i;
    Entry e = { .next = NONE, .explicit_weight = -1, .code = (uint8_t)code,
                .flags = pos->side == WHITE ? F_WHITE : 0 };
    if (b->entries.n >= UINT32_MAX - 1 || !PUSH(b, b->entries, e))
        return NONE;
    uint32_t added = (uint32_t)b->entries.n - 1;
    if (last == NONE)
        b->nodes.v[node].first = added;
    else
        b->entries.v[last].next = added;
    return added;
}

/* ---- reading one file ---- */

/* The N of the last "weight: N" in a comment (case and blanks free); -1 when absent. */
static int comment_weight(const char *text)
{
    int found = -1;
    for (const char *p = text; *p; p++) {
        if (strncasecmp(p, "weight", 6) != 0)
            continue;
        const char *q = p + 6;
        while (isspace((unsigned char)*q))
            q++;
        if (*q++ != ':')
            continue;
        while (isspace((unsigned char)*q))
            q++;
        if (!isdigit((unsigned char)*q))
            continue;
        long v = strtol(q, NULL, 10);
        found = v > BOOK_MAX_WEIGHT ? BOOK_MAX_WEIGHT : (int)v;
    }
    return found;
}

/* log2 of the weight factor a position NAG gives White's moves along its line (Black's
 * get the opposite): = and unclear 0, slight advantage x1.25, clear x1.5, decisive x2. */
static bool eval_nag(int nag, float *white_log)
{
    static const float LOG_FACTOR[] = { 0, 0, 0, 0, 0.321928f, -0.321928f, 0.584963f, -0.584963f,
                                        1, -1 };
    if (nag < 10 || nag > 19)
        return false;
    *white_log = LOG_FACTOR[nag - 10];
    return true;
}

static int move_nag_flags(int nag)
{
    switch (nag) {
    case 1: return F_GOOD;
    case 2: case 4: return F_NEVER;
    case 3: return F_BEST;
    case 5: return F_INTERESTING;
    case 6: return F_DUBIOUS;
    default: return 0;
    }
}

static void end_game(BookBuilder *b, bool annotated, const char *result)
{
    if (annotated) {
        for (size_t i = 0; i < b->ops.n; i++) {
            const Op *op = &b->ops.v[i];
            Entry *e = &b->entries.v[op->entry];
            switch (op->kind) {
            case OP_ANNOTATED: e->flags |= F_ANNOTATED; break;
            case OP_FLAGS: e->flags |= (uint8_t)op->value; break;
            case OP_WEIGHT: e->explicit_weight = (int16_t)op->value; break;
            case OP_EVAL:
                e->eval_log_sum += e->flags & F_WHITE ? op->value : -op->value;
                e->eval_n++;
                break;
            }
        }
        return;
    }
    int white_score = !strcmp(result, "1-0") ? 2 : !strcmp(result, "0-1") ? 0
                    : !strcmp(result, "1/2-1/2") ? 1 : -1;
    for (size_t i = 0; i < b->game.n; i++) {
        Entry *e = &b->entries.v[b->game.v[i]];
        e->count++;
        if (white_score < 0)
            continue;
        int own = e->flags & F_WHITE ? white_score : 2 - white_score;
        if (own == 2)
            e->wins++;
        else if (own == 1)
            e->draws++;
        else
            e->losses++;
    }
}

/* The annotated file's current line: the entry played at each ply, and for each open
 * variation the move it replaced, to put back when it closes. */
typedef struct {
    uint32_t path[PATH_MAX_PLY];
    int length;
    struct { uint32_t entry; int length; } saved[PGN_MAX_DEPTH + 1];
    int depth;
} Line;

static void read_games(BookBuilder *b, PgnReader *r, bool annotated, BookBuildProgress progress,
                       void *progress_ctx)
{
    static _Thread_local Line line; /* large: off the stack */
    uint32_t last = NONE;           /* entry of the last move, for NAGs and comments */
    int null_depth = -1;            /* lines below a null move are no book lines */
    char tag_result[8] = "";        /* the Result tag: a game cut short (pgn-extract
                                       --plylimit) ends in "*" but keeps its result there */
    const PgnItem *it;
    while (!b->out_of_memory && (it = pgn_next(r))->event != PGN_EOF) {
        switch (it->event) {
        case PGN_GAME_START:
            b->game.n = b->ops.n = 0;
            line.length = line.depth = 0;
            last = NONE;
            null_depth = -1;
            tag_result[0] = '\0';
            break;
        case PGN_TAG:
            if (!strcmp(it->tag_name, "Result"))
                snprintf(tag_result, sizeof tag_result, "%s", it->tag_value);
            break;
        case PGN_MOVE:
            last = NONE;
            if (it->move == MOVE_NULL && (null_depth < 0 || it->depth < null_depth))
                null_depth = it->depth;
            if (it->move == MOVE_NULL || (null_depth >= 0 && it->depth >= null_depth))
                break;
            if (!annotated) {
                if (it->depth > 0 || (b->opts.max_ply > 0 && it->ply >= b->opts.max_ply))
                    break;
                if ((last = find_entry(b, it->position, it->move)) != NONE)
                    PUSH(b, b->game, last);
            } else if ((last = find_entry(b, it->position, it->move)) != NONE) {
                PUSH(b, b->ops, ((Op){ last, OP_ANNOTATED, 0 }));
                if (it->ply < PATH_MAX_PLY) {
                    line.path[it->ply] = last;
                    line.length = it->ply + 1;
                }
            }
            if (last != NONE)
                b->stats.moves++;
            break;
        case PGN_NAG:
            if (!annotated)
                break;
            float white_log;
            if (eval_nag(it->nag, &white_log)) {
                for (int i = 0; i < line.length; i++)
                    if (line.path[i] != NONE)
                        PUSH(b, b->ops, ((Op){ line.path[i], OP_EVAL, white_log }));
            } else if (last != NONE && move_nag_flags(it->nag)) {
                PUSH(b, b->ops, ((Op){ last, OP_FLAGS, (float)move_nag_flags(it->nag) }));
            }
            break;
        case PGN_COMMENT:
            if (annotated && last != NONE) {
                int w = comment_weight(it->text);
                if (w >= 0)
                    PUSH(b, b->ops, ((Op){ last, OP_WEIGHT, (float)w }));
            }
            break;
        case PGN_VARIATION_START:
            if (line.depth < PGN_MAX_DEPTH) {
                int n = line.length;
                line.saved[line.depth].length = n;
                line.saved[line.depth].entry = n > 0 ? line.path[n - 1] : NONE;
                line.depth++;
            }
            last = NONE;
            break;
        case PGN_VARIATION_END:
            if (line.depth > 0) {
                line.depth--;
                line.length = line.saved[line.depth].length;
                if (line.length > 0)
                    line.path[line.length - 1] = line.saved[line.depth].entry;
            }
            if (null_depth > line.depth)
                null_depth = -1;
            last = line.length > 0 ? line.path[line.length - 1] : NONE;
            break;
        case PGN_GAME_END:
            end_game(b, annotated,
                     strcmp(it->result, "*") || !tag_result[0] ? it->result : tag_result);
            b->stats.games++;
            if (progress && b->stats.games % PROGRESS_EVERY == 0)
                progress(progress_ctx, &b->stats);
            break;
        case PGN_GAME_SKIPPED:
            b->stats.skipped++;
            break;
        default:
            break;
        }
    }
    b->game.n = b->ops.n = 0;
}

bool bookbuild_add_stream(BookBuilder *b, FILE *in, const char *name, bool annotated,
                          PgnErrorSink sink, void *sink_ctx, BookBuildProgress progress,
                          void *progress_ctx, char *err, size_t err_size)
{
    PgnReader *r = pgn_open_stream(in, name, sink, sink_ctx);
    if (!r)
        return snprintf(err, err_size, "%s: cannot read", name), false;
    read_games(b, r, annotated, progress, progress_ctx);
    bool failed = pgn_read_failed(r);
    pgn_close(r);
    if (b->out_of_memory)
        return snprintf(err, err_size, "%s: out of memory building the book", name), false;
    if (failed)
        return snprintf(err, err_size, "%s: read error", name), false;
    return true;
}

bool bookbuild_add_file(BookBuilder *b, const char *path, bool annotated, PgnErrorSink sink,
                        void *sink_ctx, BookBuildProgress progress, void *progress_ctx,
                        char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return snprintf(err, err_size, "%s: %s", path, strerror(errno)), false;
    bool ok = bookbuild_add_stream(b, f, path, annotated, sink, sink_ctx, progress, progress_ctx,
                                   err, err_size);
    fclose(f);
    return ok;
}

/* ---- weights and writing ---- */

/* A game move's strength: its games times the square of twice its (smoothed) score, so a
 * move scoring 50% counts its games, 75% counts them 2.25 times, 25% a quarter. */
static double game_strength(const Entry *e)
{
    double s = (e->wins + 0.5 * e->draws + 1) / (e->wins + e->draws + e->losses + 2.0);
    return e->count * 4 * s * s;
}

static int final_weight(const BookBuilder *b, const Entry *e, double best_strength)
{
    int computed = 0;
    if (e->count > 0 && best_strength > 0) {
        computed = (int)lround(BOOK_MAX_WEIGHT * game_strength(e) / best_strength);
        computed = computed < 1 ? 1 : computed > BOOK_MAX_WEIGHT ? BOOK_MAX_WEIGHT : computed;
    }
    if (!(e->flags & F_ANNOTATED))
        return e->count >= (uint32_t)b->opts.min_freq ? computed : -1;
    if (e->explicit_weight >= 0)
        return e->explicit_weight;
    if (e->flags & F_NEVER)
        return 0;
    if (e->flags & F_BEST)
        return BOOK_MAX_WEIGHT;
    double w = e->count >= ANNOTATED_MIN_GAMES ? computed : NEUTRAL_WEIGHT;
    if (e->eval_n)
        w *= exp2(e->eval_log_sum / e->eval_n);
    if (e->flags & F_GOOD)
        w *= 1.5;
    if (e->flags & F_INTERESTING)
        w *= 1.25;
    if (e->flags & F_DUBIOUS)
        w *= 0.5;
    long r = lround(w);
    return r < 1 ? 1 : r > BOOK_MAX_WEIGHT ? BOOK_MAX_WEIGHT : (int)r;
}

static int compare_entries(const void *pa, const void *pb)
{
    const BookEntry *a = pa, *b = pb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->code - b->code;
}

static int compare_positions(const void *pa, const void *pb)
{
    const BookWritePosition *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key;
}

bool bookbuild_write(BookBuilder *b, const char *path, uint32_t pages, BookBuildSummary *summary,
                     char *err, size_t err_size)
{
    BookWritePosition *pos = malloc((b->nodes.n ? b->nodes.n : 1) * sizeof *pos);
    BookEntry *out = malloc((b->entries.n ? b->entries.n : 1) * sizeof *out);
    if (!pos || !out) {
        free(pos), free(out);
        return snprintf(err, err_size, "out of memory writing the book"), false;
    }
    uint32_t npos = 0, nent = 0;
    for (size_t i = 0; i < b->nodes.n; i++) {
        double best = 0;
        for (uint32_t k = b->nodes.v[i].first; k != NONE; k = b->entries.v[k].next) {
            const Entry *e = &b->entries.v[k];
            if (e->count > 0 && (e->count >= (uint32_t)b->opts.min_freq || (e->flags & F_ANNOTATED))
                && game_strength(e) > best)
                best = game_strength(e);
        }
        uint32_t first = nent;
        for (uint32_t k = b->nodes.v[i].first; k != NONE; k = b->entries.v[k].next) {
            const Entry *e = &b->entries.v[k];
            int w = final_weight(b, e, best);
            if (w < 0 || (e->count == 0 && !(e->flags & F_ANNOTATED)))
                continue;
            out[nent++] =
                (BookEntry){ e->code, (uint8_t)w, e->count, e->wins, e->draws, e->losses };
        }
        if (nent == first)
            continue;
        qsort(out + first, nent - first, sizeof *out, compare_entries);
        pos[npos++] = (BookWritePosition){ b->nodes.v[i].key, first, nent - first };
    }
    qsort(pos, npos, sizeof *pos, compare_positions);
    summary->pages = book_pages_for(pages, npos, summary->pages_note, sizeof summary->pages_note);
    BookHeader h = { .games = (uint32_t)b->stats.games,
                     .max_ply = (uint32_t)(b->opts.max_ply > 0 ? b->opts.max_ply : 0) };
    summary->bytes = book_write_file(path, pos, npos, out, summary->pages, &h, err, err_size);
    summary->positions = npos;
    summary->entries = nent;
    free(pos);
    free(out);
    return summary->bytes > 0;
}

/* Lockless transposition table: see transposition.h. The data word packs
 *   move (16) | score (16) | static eval (16) | depth + offset (8) | bound (2) | age (6). */
#include "search/transposition.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/movecode.h"
#include "util/fork_join.h"
#include "util/platform.h"

#define AGE_MASK 63
/* The static-eval field of a learned entry (no real evaluation comes near it). */
#define EVAL_LEARNED 32003
#define HUGE_PAGE (2u << 20)

uint64_t tt_pack(Move move, int score, int eval, int depth, Bound bound, int age)
{
    return (uint64_t)move
         | (uint64_t)(uint16_t)(int16_t)score << 16
         | (uint64_t)(uint16_t)(int16_t)eval << 32
         | (uint64_t)(uint8_t)(depth + TT_DEPTH_OFFSET) << 48
         | (uint64_t)bound << 56
         | (uint64_t)(age & AGE_MASK) << 58;
}

static inline Move data_move(uint64_t d) { return (Move)(d & 0xFFFF); }
static inline int data_score(uint64_t d) { return (int16_t)(uint16_t)(d >> 16); }
static inline int data_eval(uint64_t d) { return (int16_t)(uint16_t)(d >> 32); }
static inline int data_depth(uint64_t d) { return (int)((d >> 48) & 0xFF) - TT_DEPTH_OFFSET; }
static inline Bound data_bound(uint64_t d) { return (Bound)((d >> 56) & 3); }
static inline int data_age(uint64_t d) { return (int)(d >> 58); }
static inline bool data_learned(uint64_t d) { return data_eval(d) == EVAL_LEARNED; }

int tt_score_to_tt(int score, int ply)
{
    if (score >= VALUE_TB_WIN_IN_MAX_PLY)
        return score + ply;
    if (score <= -VALUE_TB_WIN_IN_MAX_PLY)
        return score - ply;
    return score;
}

int tt_score_from_tt(int score, int ply)
{
    if (score == VALUE_NONE)
        return score;
    if (score >= VALUE_TB_WIN_IN_MAX_PLY)
        return score - ply;
    if (score <= -VALUE_TB_WIN_IN_MAX_PLY)
        return score + ply;
    return score;
}

/* A fresh block, aligned for huge pages: its pages come zeroed as they are first touched,
 * so a new table needs no clearing pass (which for a large table took seconds and pulled
 * all of it into memory at once). */
static void *alloc_table(size_t bytes)
{
    return pf_large_alloc(bytes, bytes >= HUGE_PAGE ? HUGE_PAGE : 4096);
}

static void free_table(TranspositionTable *tt)
{
    pf_large_free(tt->buckets, tt->bucket_count * sizeof(TTBucket));
    tt->buckets = NULL;
}

bool tt_init(TranspositionTable *tt, size_t mb)
{
    memset(tt, 0, sizeof *tt);
    return tt_resize(tt, mb);
}

bool tt_resize(TranspositionTable *tt, size_t mb)
{
    if (mb < TT_MIN_MB)
        mb = TT_MIN_MB;
    if (mb > TT_MAX_MB)
        mb = TT_MAX_MB;
    if (tt->buckets && tt->size_mb == mb)
        return true;
    size_t bytes = mb << 20;
    /* What cannot be had without swapping is refused (the old table stays): a table
     * the machine must page in and out would make every search crawl. */
    size_t old_bytes = tt->buckets ? tt->bucket_count * sizeof(TTBucket) : 0;
    if (bytes > old_bytes && bytes - old_bytes > pf_memory_available())
        return false;
    TTBucket *mem = alloc_table(bytes);
    if (!mem)
        return false;
    free_table(tt);
    tt->buckets = mem;
    tt->bucket_count = bytes / sizeof(TTBucket);
    tt->size_mb = mb;
    tt->age = 0;
    return true;
}

void tt_free(TranspositionTable *tt)
{
    free_table(tt);
    memset(tt, 0, sizeof *tt);
}

typedef struct {
    char *start;
    size_t bytes;
} ClearJob;

static void *clear_job(void *arg)
{
    ClearJob *job = arg;
    memset(job->start, 0, job->bytes);
    return NULL;
}

void tt_clear(TranspositionTable *tt, int threads)
{
    if (!tt->buckets)
        return;
    size_t total = tt->bucket_count * sizeof(TTBucket);
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    ClearJob jobs[64];
    size_t chunk = (tt->bucket_count / (size_t)threads) * sizeof(TTBucket);
    for (int i = 0; i < threads; i++) {
        jobs[i].start = (char *)tt->buckets + (size_t)i * chunk;
        jobs[i].bytes = i == threads - 1 ? total - (size_t)i * chunk : chunk;
    }
    fork_join(clear_job, jobs, sizeof jobs[0], threads);
    tt->age = 0;
}

void tt_new_search(TranspositionTable *tt)
{
    tt->age = (tt->age + 1) & AGE_MASK;
}

static inline TTBucket *bucket_of(const TranspositionTable *tt, Key key)
{
    /* Multiply-high maps the key onto any table size, not only powers of two. */
    return &tt->buckets[(uint64_t)(((unsigned __int128)key * tt->bucket_count) >> 64)];
}

void tt_prefetch(const TranspositionTable *tt, Key key)
{
    __builtin_prefetch(bucket_of(tt, key));
}

/* The entry of key with a learned entry's move as stored: 0, or 1 + its move code. */
static inline bool probe_entry(const TranspositionTable *tt, Key key, int ply, TTData *out)
{
    TTBucket *b = bucket_of(tt, key);
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        uint64_t word0 = atomic_load_explicit(&b->entries[i].key_xor_data, memory_order_relaxed);
        uint64_t data = atomic_load_explicit(&b->entries[i].data, memory_order_relaxed);
        if ((word0 ^ data) != key || data_bound(data) == BOUND_NONE)
            continue;
        out->move = data_move(data);
        out->score = tt_score_from_tt(data_score(data), ply);
        out->learned = data_learned(data);
        out->eval = out->learned ? VALUE_NONE : data_eval(data);
        out->depth = data_depth(data);
        out->bound = data_bound(data);
        return true;
    }
    /* A miss leaves an empty entry, so that no caller reads indeterminate values. */
    *out = (TTData){ MOVE_NONE, VALUE_NONE, VALUE_NONE, 0, BOUND_NONE, false };
    return false;
}

bool tt_probe_position(const TranspositionTable *tt, const Position *pos, int ply, TTData *out)
{
    bool hit = probe_entry(tt, pos_key(pos), ply, out);
    if (out->learned)
        out->move = out->move ? movecode_decode(pos, (int)out->move - 1) : MOVE_NONE;
    return hit;
}

bool tt_probe(const TranspositionTable *tt, Key key, int ply, TTData *out)
{
    bool hit = probe_entry(tt, key, ply, out);
    if (out->learned)
        out->move = MOVE_NONE;
    return hit;
}

/* The slot of key's bucket that a new entry for key takes. */
typedef struct {
    TTEntry *entry; /* NULL: every slot holds a learned entry that must stay */
    uint64_t data;  /* what entry holds now */
    bool same_key;  /* entry holds a result for key itself */
} TTSlot;

/* key's own entry or an empty slot if there is one, else the slot of least value,
 * depth - age_weight * (searches since it was written), never a learned entry of age
 * keep_age (learned entries stay for the search they were loaded for). */
static TTSlot choose_slot(const TranspositionTable *tt, Key key, int keep_age, int age_weight)
{
    TTBucket *b = bucket_of(tt, key);
    TTSlot slot = { NULL, 0, false };
    int slot_value = 1 << 30;
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        TTEntry *e = &b->entries[i];
        uint64_t word0 = atomic_load_explicit(&e->key_xor_data, memory_order_relaxed);
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        if ((word0 ^ data) == key && data_bound(data) != BOUND_NONE)
            return (TTSlot){ e, data, true };
        if (data_bound(data) == BOUND_NONE)
            return (TTSlot){ e, data, false };
        if (data_learned(data) && data_age(data) == keep_age)
            continue;
        int relative_age = (tt->age - data_age(data)) & AGE_MASK;
        int value = data_depth(data) - age_weight * relative_age;
        if (value < slot_value) {
            slot_value = value;
            slot.entry = e;
            slot.data = data;
        }
    }
    return slot;
}

static void write_entry(TTEntry *e, Key key, uint64_t data)
{
    atomic_store_explicit(&e->key_xor_data, key ^ data, memory_order_relaxed);
    atomic_store_explicit(&e->data, data, memory_order_relaxed);
}

void tt_store(TranspositionTable *tt, Key key, int ply, Move move, int score, int eval,
              int depth, Bound bound)
{
    /* Shallow entries and those left by earlier searches go first. */
    TTSlot slot = choose_slot(tt, key, tt->age, 8);
    if (!slot.entry)
        return;
    if (slot.same_key) {
        uint64_t old = slot.data;
        /* Keep a deeper result of this search unless the new one is exact. */
        if (bound != BOUND_EXACT && depth + 3 < data_depth(old) && data_age(old) == tt->age)
            return;
        bool protected = data_learned(old) && data_age(old) == tt->age;
        if (protected && (bound != BOUND_EXACT || depth <= data_depth(old)))
            return;
        if (move == MOVE_NONE && !data_learned(old))
            move = data_move(old);
    }
    write_entry(slot.entry, key,
                tt_pack(move, tt_score_to_tt(score, ply), eval, depth, bound, tt->age));
}

void tt_store_learned(TranspositionTable *tt, Key key, int code, int score, int depth)
{
    /* Stored for the next search (its age); the shallowest slot goes first. */
    int age = (tt->age + 1) & AGE_MASK;
    TTSlot slot = choose_slot(tt, key, age, 0);
    if (!slot.entry)
        return;
    Move move = (Move)(code >= 0 && code < 256 ? code + 1 : 0);
    write_entry(slot.entry, key,
                tt_pack(move, tt_score_to_tt(score, 0), EVAL_LEARNED, depth, BOUND_EXACT, age));
}

/* A sample of 1000 entries (the first 250 buckets) gives per mille directly; every search
 * iteration asks, so the scan is kept to 16 KB (at 5,000 nodes a search a scan of 1000
 * buckets took 2% of the data generator's time). */
int tt_hashfull(const TranspositionTable *tt)
{
    uint64_t sample =
        tt->bucket_count < 1000 / TT_BUCKET_SIZE ? tt->bucket_count : 1000 / TT_BUCKET_SIZE;
    int used = 0;
    for (uint64_t i = 0; i < sample; i++)
        for (int j = 0; j < TT_BUCKET_SIZE; j++) {
            uint64_t data =
                atomic_load_explicit(&tt->buckets[i].entries[j].data, memory_order_relaxed);
            if (data_bound(data) != BOUND_NONE && data_age(data) == tt->age)
                used++;
        }
    return sample ? (int)(used * 1000 / (sample * TT_BUCKET_SIZE)) : 0;
}

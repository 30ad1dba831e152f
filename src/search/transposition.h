/* Lockless transposition table in Crafty's manner: an entry is two 64-bit words stored as
 * (key ^ data, data), so a reader accepts it only if the words still match each other;
 * an entry torn by a concurrent writer fails the check and reads as a miss.
 * Four entries (64 bytes) form a bucket, one cache line. */
#ifndef SAAVEDRA_TRANSPOSITION_H
#define SAAVEDRA_TRANSPOSITION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"
#include "board/score.h"
#include "board/types.h"

#define TT_BUCKET_SIZE 4
#define TT_MIN_MB 1
#define TT_MAX_MB 65536
/* Stored depths are offset so that quiescence entries (depth 0 and -1) fit in 8 bits. */
#define TT_DEPTH_OFFSET 8

typedef struct {
    _Atomic uint64_t key_xor_data;
    _Atomic uint64_t data;
} TTEntry;

typedef struct {
    TTEntry entries[TT_BUCKET_SIZE];
} TTBucket;

typedef struct {
    TTBucket *buckets;
    uint64_t bucket_count;
    size_t size_mb;
    int age; /* 6 bits, advanced once per search */
} TranspositionTable;

/* What a probe returns (score already converted to be relative to the probing ply). */
typedef struct {
    Move move; /* a plain move or MOVE_NONE, a learned entry's too (tt_probe_position) */
    int score;
    int eval;
    int depth;
    Bound bound;
    /* An entry loaded from the learning file: a game's verdict, not a search's result, so
     * it has no static evaluation, grounds no singular extension and may cut at PV nodes
     * (tt_cuts_at_pv). */
    bool learned;
} TTData;

/* Allocates mb megabytes (clamped to 1..65536); false (table left empty) if out of memory. */
bool tt_init(TranspositionTable *tt, size_t mb);
/* Reallocates to a new size, zeroed without a clearing pass (fresh pages); a size the
 * system cannot give without swapping (over MemAvailable) is refused, like an allocation
 * that fails: false, and the old table is kept. */
bool tt_resize(TranspositionTable *tt, size_t mb);
void tt_free(TranspositionTable *tt);
/* Zeroes the table, split among `threads` threads. */
void tt_clear(TranspositionTable *tt, int threads);
/* Called once at the start of every search: older entries become preferred victims. */
void tt_new_search(TranspositionTable *tt);

/* True with the entry of pos in *out; false with an empty one (bound BOUND_NONE). A
 * learned entry stores its move as the move's one-byte code (movecode.h), which names a
 * move only in its position: it is decoded here. */
bool tt_probe_position(const TranspositionTable *tt, const Position *pos, int ply, TTData *out);
/* The same by key alone (tests choose keys that share a bucket): a learned entry's move
 * then reads as MOVE_NONE. */
bool tt_probe(const TranspositionTable *tt, Key key, int ply, TTData *out);
void tt_store(TranspositionTable *tt, Key key, int ply, Move move, int score, int eval,
              int depth, Bound bound);
void tt_prefetch(const TranspositionTable *tt, Key key);
/* Stores a learned position (learning file): code is its best move's one-byte code or -1.
 * The entry is protected during the next search (the one after the next tt_new_search):
 * no other position replaces it and the same position only with a deeper exact result. */
void tt_store_learned(TranspositionTable *tt, Key key, int code, int score, int depth);
/* Permille of sampled entries written during the current search. */
int tt_hashfull(const TranspositionTable *tt);

/* Packing of the data word (exposed for tests). */
uint64_t tt_pack(Move move, int score, int eval, int depth, Bound bound, int age);
/* Mate and tablebase scores are stored relative to the node, not the root. */
int tt_score_to_tt(int score, int ply);
int tt_score_from_tt(int score, int ply);

/* Whether a learned entry may cut at PV nodes (not the root) as any entry may elsewhere:
 * without that the learned line itself is searched as if unknown. -DLEARNED_PV_CUT=0
 * turns it off (docs/learning.md measures both). */
#ifndef LEARNED_PV_CUT
#define LEARNED_PV_CUT 1
#endif

static inline bool tt_cuts_at_pv(const TTData *d)
{
    return LEARNED_PV_CUT && d->learned;
}

#endif

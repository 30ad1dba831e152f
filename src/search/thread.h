/* The state of a search, shared by the driver (search.c) and the recursive search
 * (alphabeta.c): all per-thread state lives in SearchThread (a parallel search clones
 * it); what the threads of one search share (limits, clock, stop flag, TT, reporter) is
 * SearchShared. Progress goes out through SearchReporter callbacks, so the search knows
 * no protocol. */
#ifndef SAAVEDRA_THREAD_H
#define SAAVEDRA_THREAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "board/position.h"
#include "eval/evaluate.h"
#include "nnue/nnue_eval.h"
#include "search/history.h"
#include "search/movepicker.h"
#include "search/timeman.h"
#include "search/transposition.h"
#include "tablebase/syzygy.h"

/* One line of search output. Scores are from the side to move's point of view. */
typedef struct {
    int depth, seldepth;
    int multipv;          /* 1-based line number */
    int score;            /* internal score (see is_mate / mate_moves / cp) */
    bool is_mate;
    int mate_moves;       /* mate in N moves (negative: getting mated), when is_mate */
    int cp;               /* centipawns, when !is_mate */
    Bound bound;          /* BOUND_EXACT, BOUND_LOWER (fail high) or BOUND_UPPER (fail low) */
    uint64_t nodes, nps, tbhits;
    int64_t time_ms;
    int hashfull;         /* permille */
    const Move *pv;
    int pv_length;
} SearchReport;

typedef struct {
    void (*on_iteration)(void *ctx, const SearchReport *report);
    /* The root move being searched (sent only after the first second). */
    void (*on_currmove)(void *ctx, int depth, Move move, int number);
    /* Called once per search by the engine (not by search_run). ponder may be MOVE_NONE;
     * best is MOVE_NONE when there is no legal move. */
    void (*on_bestmove)(void *ctx, Move best, Move ponder);
    void *ctx;
    /* From the engine, not the search (either may be NULL): the move about to be reported
     * through on_bestmove comes from the opening book (detail: its weight and
     * statistics); a one-line message for the user (e.g. a book that cannot be read). */
    void (*on_book)(void *ctx, Move move, const char *detail);
    void (*on_info)(void *ctx, const char *text);
} SearchReporter;

/* SMP Mode: how threads beyond the first take part in a search. */
typedef enum { SMP_YBWC, SMP_LAZY } SmpMode;

/* Everything the threads of one search share. Written by the engine before the search
 * starts; afterwards only the atomics change. */
typedef struct {
    atomic_bool stop;
    atomic_bool stop_requested;     /* stop from outside (not a limit): ends even the pause
                                     * a strength-limited search takes */
    atomic_bool helpers_stop;       /* Lazy SMP: the main thread is done, helpers end */
    SmpMode smp_mode;
    atomic_bool pondering;          /* time limits wait for ponderhit */
    _Atomic int64_t ponderhit_ms;   /* when ponderhit arrived */
    SearchLimits limits;
    TimeManager tm;                 /* read and restarted by the main thread only */
    TranspositionTable *tt;
    const SearchReporter *reporter;
    int multipv;
    int contempt;                   /* draw score penalty for the side to move at the root */
    bool limit_strength;
    int elo;
    uint64_t node_limit;            /* 0 = none (limits.nodes or the strength limit) */
    uint64_t seed;                  /* for strength-limited move choice */
    SyzygyConfig tb;                /* tablebase probing (pieces 0: none) */
    SyzygyRoot tb_root;             /* the root's tablebase ranking, when it is in the tables */
    const Network *net;             /* the neural evaluation; NULL: the hand-written one */
    int net_scale;                  /* percent applied to the net's output ("NNUE Scale") */
} SearchShared;

typedef struct {
    Move move;
    int penalty;           /* cp taken off the move's score (SearchLimits.penalized) */
    int score, previous_score;
    Bound bound;
    int seldepth;
    uint64_t nodes;
    int pv_length;
    Move pv[MAX_PLY + 1];
} RootMove;

/* Per-ply search state. */
typedef struct {
    Move move;             /* move made at this ply */
    Piece piece;           /* the piece that made it */
    int16_t (*cont)[SQUARE_NB]; /* continuation table indexed by the reply (updated on cut-offs) */
    int static_eval;
    Move killers[2];
    Move excluded;         /* singular verification: the move this node's search leaves out */
    int double_extensions; /* double extensions on the line from the root to this ply */
} SearchStack;

#define STACK_OFFSET 4

struct ThreadPool;
struct SplitPoint;
struct SearchThread;
typedef void (*PoolJob)(struct SearchThread *t, void *arg);

/* One thread's use of a lock (threads.h, lock_acquire): acquisitions, the time it
 * held the lock and the time it waited for it. A hold over LOCK_LONG_NS is also counted
 * apart: that long, the holder lost its core (more threads than cores). */
typedef struct {
    uint64_t count, long_count;
    int64_t hold_ns, wait_ns, long_ns;
} LockStats;

/* Parallel-search counters of one thread (summed over the pool for reports). */
typedef struct {
    uint64_t splits;          /* split points created (at least one helper joined) */
    uint64_t split_failed;    /* split attempts that found no helper */
    uint64_t helpers;         /* helpers recruited over all splits */
    uint64_t cutoffs;         /* split points ended by a beta cutoff (helpers aborted) */
    uint64_t master_joins;    /* helpful master: joined a helper's split point while waiting */
    int64_t idle_ns;          /* time spent idle in the pool */
    int64_t wait_ns;          /* time an owner waited at its split point, helping excluded
                               * (or thread 0 for the Lazy SMP helpers to stop) */
    int64_t idle_vns, wait_vns; /* the same on the pool's virtual clock (threads.c) */
    LockStats pool_lock;      /* the pool lock, taken by this search thread */
    LockStats sp_lock;        /* split point locks */
    /* Whole-pool figures since pool_reset_stats, set by pool_stats (not per thread): wall
     * and virtual time, the threads' CPU time (0 where unknown), thread 0's idle time
     * (between searches) on both clocks and the cores the virtual clock shares. */
    int64_t wall_ns, virtual_ns, cpu_ns, gap_ns, gap_vns;
    int cpus;
    /* Violated invariants, counted in SEARCH_CHECKS builds only (checks.h). */
    uint64_t stale_exclusions; /* nodes entered with another node's excluded move */
    uint64_t bad_double_extensions; /* nodes whose double-extension count is not their
                                     * parent's, plus one after a double extension */
    uint64_t bad_node_counts; /* iterations whose root moves hold more nodes than the
                               * iteration; searches whose thread 0 misses nodes (split.c) */
} SplitStats;

typedef struct SearchThread {
    int id;
    Position pos;
    SearchShared *shared;
    History *hist;
    PawnTable *pawns;
    NnueState *nnue;          /* this thread's accumulators (nnue_eval.h) */
    SearchStack stack[MAX_PLY + STACK_OFFSET + 4];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    RootMove root_moves[MAX_MOVES];
    int root_count;
    int pv_index, pv_last;
    /* Written only by this thread (relaxed stores), read by reports of the others. */
    _Atomic uint64_t nodes, tbhits;
    /* YBWC: the nodes other threads searched at this thread's split points, less those
     * it searched at theirs while it waited (modulo 2^64; split.c). With its own nodes,
     * every node searched below the node this thread is at (thread_tree_nodes). */
    uint64_t split_nodes;
    _Atomic uint64_t learned_hits; /* probes that found a learning-file entry */
    int seldepth, root_depth, completed_depth;
    int nmp_min_ply;          /* null move is off below this ply (verification search) */
    /* Plies of this thread's own call chain inside their singular verification search
     * (kept in SEARCH_CHECKS builds, checks.h; never copied to another thread). */
    bool verifying[MAX_PLY + 1];
    Color root_side;
    double best_move_changes;
    bool ponder_active;       /* the clock has not been restarted by ponderhit yet */
    int64_t start_ms;         /* when this search started (for reports) */

    /* Parallel search (threads.c, split.c). */
    struct ThreadPool *pool;
    pthread_t handle;
    pthread_cond_t wake;      /* with the pool lock: a job arrives, helpers finish */
    atomic_uint signals;      /* bumped with every signal of wake: what a spinning wait reads */
    PoolJob job;              /* guarded by the pool lock */
    PoolJob job_done;         /* run at the check-in after job, pool lock held (or NULL) */
    void *job_arg;
    uint64_t job_nodes;       /* a helper's nodes at its split point, for job_done (split.c) */
    bool idle;                /* in the pool without work (pool lock) */
    bool exit;                /* leave the pool (pool lock) */
    struct SplitPoint *active_sp;   /* innermost split point this thread works under */
    struct SplitPoint *waiting_at;  /* helpful master: waiting at its own split point (pool lock) */
    struct SplitPoint *assigned;    /* a split point given to it while waiting (pool lock) */
    struct SplitPoint *splits;      /* its own split points (split.c), split_count in use */
    void (*free_splits)(struct SearchThread *t); /* set by split.c with the allocation */
    int split_count;
    SplitStats stats;
} SearchThread;

/* The move loop of one node: what alphabeta() computed before it (fixed) and its
 * progress. A node that becomes a split point moves this into the SplitPoint, where the
 * threads that search its moves share it under the split point's lock. */
typedef struct MoveLoop {
    int depth, ply, beta;
    bool pv_node, cut_node, root, checked, improving;
    Move tt_move;
    int tt_extension;                /* the singular verification's verdict on tt_move */
    int alpha, best, move_count;
    Move best_move;
    bool skip_quiets;
    int quiet_count, capture_count;
    Move quiets[64], captures[32];   /* tried and not best: punished on a cutoff */
    MovePicker mp;                   /* pos/hist/cont are set by the thread calling it */
} MoveLoop;

typedef void (*MoveLoopFn)(SearchThread *t, MoveLoop *ml, struct SplitPoint *sp);

/* A node searched by several threads (split.c). Owned by the thread that split it, in
 * its splits[] array; alive until every helper has left. */
typedef struct SplitPoint {
    pthread_mutex_t lock;      /* guards ml, pv and pv_length */
    int64_t locked_at;         /* when its holder took the lock (split_lock) */
    MoveLoop ml;
    MoveLoopFn loop;
    SearchThread *owner;
    struct SplitPoint *parent; /* the split point the owner worked under, or NULL */
    atomic_bool cutoff;        /* a beta cutoff: everyone below stops */
    atomic_bool owner_waiting; /* the owner waits here and may be given work below */
    int helpers;               /* threads working here besides the owner (pool lock) */
    int seldepth;              /* helpers' maximum (pool lock) */
    int pv_length;             /* > ply once a thread raised alpha at a PV node */
    uint64_t helper_nodes;     /* nodes the helpers searched here, below them too (pool lock) */
    Move pv[MAX_PLY + 1];
    SearchStack stack[5];      /* the owner's stack entries ply-4 .. ply */
    int root_depth, completed_depth, nmp_min_ply;
    Color root_side;
    Position *pos;             /* the node's position with its recent history */
    /* The owner's own node, kept aside while it waits here and helps below (split.c):
     * allocated at the first such join and reused, grown when a deeper game needs it. */
    Position *saved_pos;
    size_t saved_pos_bytes;
    SearchStack *saved_stack;
} SplitPoint;

/* The search this thread works on has been stopped (stop, time, node limit), a split
 * point above it has had a cutoff, or (Lazy SMP helpers) the main thread has finished.
 * Results of an aborted search are meaningless and must not be stored. */
static inline bool search_aborted(const SearchThread *t)
{
    if (atomic_load_explicit(&t->shared->stop, memory_order_relaxed))
        return true;
    for (const SplitPoint *sp = t->active_sp; sp; sp = sp->parent)
        if (atomic_load_explicit(&sp->cutoff, memory_order_relaxed))
            return true;
    return t->id != 0 && atomic_load_explicit(&t->shared->helpers_stop, memory_order_relaxed);
}

/* The node counters are written by their thread alone: a relaxed load and store is all
 * the atomicity a reader on another thread needs, and costs what a plain ++ does. */
static inline void thread_add_node(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}
static inline uint64_t thread_nodes(const SearchThread *t)
{
    return atomic_load_explicit(&t->nodes, memory_order_relaxed);
}
/* Every node searched below the node t is at, whichever thread searched it: t's own and
 * those of the threads at its split points (thread.split_nodes). Its differences measure
 * a subtree, the same way at any thread count and in both SMP modes. Read by t only. */
static inline uint64_t thread_tree_nodes(const SearchThread *t)
{
    return thread_nodes(t) + t->split_nodes;
}
static inline void thread_add_tbhits(SearchThread *t, uint64_t n)
{
    atomic_store_explicit(&t->tbhits, atomic_load_explicit(&t->tbhits, memory_order_relaxed) + n,
                          memory_order_relaxed);
}
static inline void thread_add_learned_hit(SearchThread *t)
{
    atomic_store_explicit(&t->learned_hits,
                          atomic_load_explicit(&t->learned_hits, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

#endif

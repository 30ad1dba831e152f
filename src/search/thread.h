/* The state of a search, shared by the driver (search.c) and the recursive search
 * (alphabeta.c): all per-thread state lives in SearchThread (a parallel search clones
 * it); what the threads of one search share (limits, clock, stop flag, TT, reporter) is
 * SearchShared. Progress goes out through SearchReporter callbacks, so the search knows
 * no protocol. */
#ifndef SAAVEDRA_THREAD_H
#define SAAVEDRA_THREAD_H

#include <stdatomic.h>

#include "board/position.h"
#include "eval/evaluate.h"
#include "search/history.h"
#include "search/syzygy.h"
#include "search/timeman.h"
#include "search/transposition.h"

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
} SearchReporter;

/* Everything the threads of one search share. Written by the engine before the search
 * starts; afterwards only the atomics change. */
typedef struct {
    atomic_bool stop;
    atomic_bool stop_requested;     /* stop from outside (not a limit): ends even the pause
                                     * a strength-limited search takes */
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
} SearchShared;

typedef struct {
    Move move;
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
} SearchStack;

#define STACK_OFFSET 4

typedef struct SearchThread {
    int id;
    Position pos;
    SearchShared *shared;
    History *hist;
    PawnTable *pawns;
    SearchStack stack[MAX_PLY + STACK_OFFSET + 4];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    RootMove root_moves[MAX_MOVES];
    int root_count;
    int pv_index, pv_last;
    uint64_t nodes, tbhits;
    int seldepth, root_depth, completed_depth;
    int nmp_min_ply;          /* null move is off below this ply (verification search) */
    Color root_side;
    double best_move_changes;
    bool ponder_active;       /* the clock has not been restarted by ponderhit yet */
    int64_t start_ms;         /* when this search started (for reports) */
} SearchThread;

#endif

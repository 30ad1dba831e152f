/* Search driver: iterative deepening, aspiration windows, MultiPV,
 * time decisions between iterations, reports, and the weakened move choice. */
#include "search/search.h"

#include <stdlib.h>
#include <string.h>

#include "search/alphabeta.h"
#include "search/checks.h"
#include "board/movegen.h"
#include "board/position_copy.h"
#include "search/params.h"
#include "search/rootmoves.h"
#include "search/stopping.h"
#include "search/strength.h"
#include "search/threads.h"
#include "util/timeutil.h"

void search_init(void)
{
    alphabeta_init();
}

void search_score_to_report(int score, SearchReport *report)
{
    report->score = score;
    report->is_mate = false;
    report->mate_moves = 0;
    report->cp = 0;
    if (score >= VALUE_MATE_IN_MAX_PLY) {
        report->is_mate = true;
        report->mate_moves = (VALUE_MATE - score + 1) / 2;
    } else if (score <= -VALUE_MATE_IN_MAX_PLY) {
        report->is_mate = true;
        report->mate_moves = -(VALUE_MATE + score) / 2;
    } else
        report->cp = score;
}

static void report_line(SearchThread *t, int depth, int index, bool use_bound)
{
    const SearchReporter *rep = t->shared->reporter;
    if (!rep || !rep->on_iteration || t->id != 0)
        return;
    RootMove *rm = &t->root_moves[index];
    bool updated = rm->score != -VALUE_INFINITE;
    int score = updated ? rm->score : rm->previous_score;
    if (score == -VALUE_INFINITE)
        return;
    int64_t elapsed = time_now_ms() - t->start_ms;
    SearchReport r;
    memset(&r, 0, sizeof r);
    r.depth = updated ? depth : (depth > 1 ? depth - 1 : 1);
    r.seldepth = rm->seldepth > r.depth ? rm->seldepth : r.depth;
    r.multipv = index + 1;
    int shown =
        syzygy_root_score(&t->shared->tb_root, rm->move, score); /* the true tablebase result */
    search_score_to_report(shown, &r);
    r.bound = use_bound && updated && shown == score ? rm->bound : BOUND_EXACT;
    r.nodes = search_total_nodes(t);
    r.tbhits = t->pool && pool_size(t->pool) > 1 ? pool_tbhits(t->pool) : atomic_load(&t->tbhits);
    r.time_ms = elapsed;
    r.nps = elapsed > 0 ? r.nodes * 1000 / (uint64_t)elapsed : r.nodes * 1000;
    r.hashfull = tt_hashfull(t->shared->tt);
    r.pv = rm->pv;
    r.pv_length = rm->pv_length;
    rep->on_iteration(rep->ctx, &r);
}

static Move ponder_move(SearchThread *t, const RootMove *best)
{
    if (best->pv_length > 1)
        return best->pv[1];
    /* No second move in the PV (e.g. the iteration was cut short): ask the table. */
    Position *pos = &t->pos;
    Move reply = MOVE_NONE;
    make_move(pos, best->move);
    TTData tte;
    if (tt_probe_position(t->shared->tt, pos, 1, &tte) && move_is_legal(pos, tte.move))
        reply = tte.move;
    unmake_move(pos, best->move);
    return reply;
}

static void reset_stack(SearchThread *t)
{
    int16_t (*none)[SQUARE_NB] = t->hist->continuation[NO_PIECE][0];
    for (size_t i = 0; i < sizeof t->stack / sizeof *t->stack; i++) {
        SearchStack *ss = &t->stack[i];
        memset(ss, 0, sizeof *ss);
        ss->piece = NO_PIECE;
        ss->cont = none;
        ss->static_eval = VALUE_NONE;
    }
}

/* A search on the clock that has a mate in hand (an iteration ended on one, or the main
 * line failed high on one) plays it: more depth only proves the exact length or a shorter
 * mate, and a fail-high re-search for that took up to half the clock in real games. The
 * next move's search starts from the table. Not while pondering, for a fixed movetime or
 * go mate (the time or the distance was asked for), nor under the strength limit. */
static bool mate_in_hand_ends_search(const SearchThread *t, int score)
{
    const SearchShared *sh = t->shared;
    return score >= VALUE_MATE_IN_MAX_PLY && t->id == 0 && !t->ponder_active
        && sh->tm.soft_ms >= 0 && !sh->limits.infinite && !sh->limits.mate && !sh->limit_strength;
}

/* Aspiration loop for one root line at one depth. */
static void search_line(SearchThread *t, int depth)
{
    RootMove *rm = &t->root_moves[t->pv_index];
    int prev = rm->previous_score;
    int alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
    int delta = ASPIRATION_DELTA + (prev > 0 ? prev : -prev) / ASPIRATION_SCORE_DIVISOR;
    if (depth >= 4 && prev != -VALUE_INFINITE && prev < VALUE_MATE_IN_MAX_PLY
        && prev > -VALUE_MATE_IN_MAX_PLY) {
        alpha = prev - delta > -VALUE_INFINITE ? prev - delta : -VALUE_INFINITE;
        beta = prev + delta < VALUE_INFINITE ? prev + delta : VALUE_INFINITE;
    }
    for (;;) {
        int v = alphabeta(t, alpha, beta, depth, 0, false);
        root_moves_sort(t->root_moves + t->pv_index, t->root_count - t->pv_index);
        if (search_aborted(t))
            return;
        bool report = time_now_ms() - t->start_ms > 3000;
        if (v <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = v - delta > -VALUE_INFINITE ? v - delta : -VALUE_INFINITE;
        } else if (v >= beta) {
            if (t->pv_index == 0 && mate_in_hand_ends_search(t, v)) {
                atomic_store(&t->shared->stop, true);
                return;
            }
            beta = v + delta < VALUE_INFINITE ? v + delta : VALUE_INFINITE;
        } else
            return;
        if (report)
            report_line(t, depth, t->pv_index, true);
        /* A re-search is part of the iteration: the clock and node limits hold for it. */
        search_poll_limits(t);
        if (search_aborted(t))
            return;
        delta += delta / 2 + 5;
    }
}

/* Every root line (multi-PV) at one depth, until done or stopped. */
static void search_lines(SearchThread *t, int depth, int lines)
{
    for (t->pv_index = 0; t->pv_index < lines && !search_aborted(t); t->pv_index++) {
        t->pv_last = t->root_count;
        t->seldepth = 0;
        search_line(t, depth);
        root_moves_sort(t->root_moves, t->pv_index + 1);
    }
}

/* A strength-limited search ends on its node cap long before a human would move: it
 * waits out its thinking time (strength_think_ms), ending at once on a stop from outside.
 * While pondering it waits for ponderhit first; its time then starts. */
static void strength_pause(SearchThread *t)
{
    SearchShared *sh = t->shared;
    if (!sh->limit_strength || t->id != 0 || !limits_use_time(&sh->limits))
        return;
    while (!atomic_load(&sh->stop_requested)) {
        if (!search_clock_running(t)) {
            time_sleep_ms(5);
            continue;
        }
        int64_t think = strength_think_ms(&sh->tm, &sh->limits);
        if (time_now_ms() - sh->tm.start_ms >= think)
            return;
        time_sleep_ms(5);
    }
}

/* Lazy SMP: helper `id` skips some depths, so that the threads spread over several
 * iterations instead of all searching the same one (the pattern of Stockfish's helpers:
 * skip blocks of SIZE depths, shifted by PHASE). */
static bool lazy_skips_depth(int id, int depth)
{
    static const int SIZE[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static const int PHASE[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    int i = (id - 1) % 20;
    return ((depth + PHASE[i]) / SIZE[i]) % 2 == 1;
}

static void lazy_helper_job(SearchThread *t, void *arg)
{
    (void)arg;
    search_run(t);
}

/* Thread 0 at the start of a search: every thread gets the search's shared state and
 * zero counters; in Lazy mode the helpers start on copies of the root. */
static void start_helpers(SearchThread *t)
{
    ThreadPool *p = t->pool;
    if (!p || pool_size(p) < 2)
        return;
    atomic_store(&t->shared->helpers_stop, false);
    for (int i = 1; i < pool_size(p); i++) {
        SearchThread *h = pool_thread(p, i);
        h->shared = t->shared;
        atomic_store_explicit(&h->nodes, 0, memory_order_relaxed);
        atomic_store_explicit(&h->tbhits, 0, memory_order_relaxed);
        atomic_store_explicit(&h->learned_hits, 0, memory_order_relaxed);
        if (t->shared->smp_mode == SMP_LAZY)
            position_copy_used(&h->pos, &t->pos);
    }
    if (t->shared->smp_mode != SMP_LAZY)
        return;
    SearchThread *h, *started[POOL_MAX_THREADS];
    int n = 0;
    pool_lock(p);
    while ((h = pool_checkout_locked(p))) {
        pool_start_locked(p, h, lazy_helper_job, NULL, NULL);
        started[n++] = h;
    }
    pool_unlock(p);
    /* They stay in the pool until this search has stopped them (stop_helpers). */
    for (int i = 0; i < n; i++)
        pool_wake(p, started[i]);
}

static void stop_helpers(SearchThread *t)
{
    ThreadPool *p = t->pool;
    if (!p || pool_size(p) < 2 || t->shared->smp_mode != SMP_LAZY)
        return;
    atomic_store(&t->shared->helpers_stop, true);
    pool_wait_helpers(p);
}

static SearchResult run(SearchThread *t);

SearchResult search_run(SearchThread *t)
{
    if (t->id != 0)
        return run(t);
    start_helpers(t);
    SearchResult res = run(t);
    stop_helpers(t);
    res.nodes = search_total_nodes(t);
#if SEARCH_CHECKS
    /* Every thread searches below thread 0's root with YBWC, none does in Lazy mode. */
    if (thread_tree_nodes(t) != (t->shared->smp_mode == SMP_LAZY ? thread_nodes(t) : res.nodes))
        t->stats.bad_node_counts++;
#endif
    res.learned_hits = t->pool && pool_size(t->pool) > 1 ? pool_learned_hits(t->pool)
                                                          : atomic_load(&t->learned_hits);
    return res;
}

static SearchResult run(SearchThread *t)
{
    SearchShared *sh = t->shared;
    SearchResult res;
    memset(&res, 0, sizeof res);
    t->start_ms = time_now_ms();
    atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
    atomic_store_explicit(&t->tbhits, 0, memory_order_relaxed);
    atomic_store_explicit(&t->learned_hits, 0, memory_order_relaxed);
    t->split_nodes = 0;
    t->seldepth = t->completed_depth = t->root_depth = t->nmp_min_ply = 0;
    t->best_move_changes = 0;
    t->root_side = t->pos.side;
    t->ponder_active = atomic_load(&sh->pondering);
    t->root_count = 0;
    reset_stack(t);
    root_moves_init(t);
    if (sh->tb_root.active && t->id == 0)
        thread_add_tbhits(t, (uint64_t)sh->tb_root.count); /* the root's moves were probed */

    if (t->root_count == 0) {
        /* Mate or stalemate: nothing to search, say so once. */
        t->root_moves[0].score = in_check(&t->pos) ? -VALUE_MATE : VALUE_DRAW;
        t->root_moves[0].pv_length = 0;
        t->root_moves[0].seldepth = 0;
        t->root_moves[0].bound = BOUND_EXACT;
        report_line(t, 0, 0, false);
        res.score = t->root_moves[0].score;
        return res;
    }

    int multipv = sh->multipv < 1 ? 1 : sh->multipv;
    if (multipv > t->root_count)
        multipv = t->root_count;
    int lines = multipv;
    if (sh->limit_strength && strength_candidate_lines(sh->elo) > lines)
        lines = strength_candidate_lines(sh->elo);
    if (lines > t->root_count)
        lines = t->root_count;
    if (t->id != 0)
        multipv = lines = 1; /* Lazy SMP helpers only fill the table */

    Move last_best = MOVE_NONE, reported_best = MOVE_NONE;
    int stable = 0, prev_score = -VALUE_INFINITE;
    for (int depth = 1; depth < MAX_PLY; depth++) {
        if (sh->limits.depth && depth > sh->limits.depth)
            break;
        if (t->id != 0 && lazy_skips_depth(t->id, depth))
            continue;
        t->root_depth = depth;
        t->best_move_changes *= 0.5;
        /* The root moves' node counts and the iteration's are both thread_tree_nodes:
         * with YBWC, every thread's nodes below the root; in Lazy mode, this thread's. */
        uint64_t nodes_before = thread_tree_nodes(t);
        for (int i = 0; i < t->root_count; i++) {
            t->root_moves[i].previous_score = t->root_moves[i].score;
            t->root_moves[i].nodes = 0;
        }
        search_lines(t, depth, lines);
        /* A stop from outside before depth 1 is complete (a GUI's "move now", a ponderhit
         * race, quit) would leave a move nobody searched: depth 1 costs microseconds, so it
         * is finished first. The limits never stop depth 1 (stopping.c). */
        bool stop_after = false;
        for (int retry = 0; retry < 3 && depth == 1 && t->id == 0 && search_aborted(t); retry++) {
            atomic_store(&sh->stop, false);
            search_lines(t, depth, lines);
            stop_after = true;
        }
        if (search_aborted(t))
            break;
        t->completed_depth = depth;
#if SEARCH_CHECKS
        {
            uint64_t sum = 0;
            for (int i = 0; i < t->root_count; i++)
                sum += t->root_moves[i].nodes;
            if (sum > thread_tree_nodes(t) - nodes_before)
                t->stats.bad_node_counts++;
        }
#endif
        for (int i = 0; i < multipv; i++)
            report_line(t, depth, i, false);
        reported_best = t->root_moves[0].move;
        if (stop_after) {
            atomic_store(&sh->stop, true);
            break;
        }

        int best = t->root_moves[0].score;
        if (sh->limits.mate && best >= VALUE_MATE - 2 * sh->limits.mate + 1)
            break;
        if (t->id != 0)
            continue; /* time is the main thread's business */
        if (t->root_moves[0].move == last_best)
            stable++;
        else {
            stable = 0;
            last_best = t->root_moves[0].move;
        }

        if (search_clock_running(t) && !sh->limits.infinite) {
            int64_t now = time_now_ms();
            /* A proven mate will not change with more depth. */
            int mate_plies = VALUE_MATE - (best > 0 ? best : -best);
            if (sh->tm.soft_ms >= 0 && mate_plies < MAX_PLY && depth >= 2 * mate_plies + 6)
                break;
            if (mate_in_hand_ends_search(t, best))
                break;
            uint64_t iteration_nodes = thread_tree_nodes(t) - nodes_before;
            double share =
                iteration_nodes ? (double)t->root_moves[0].nodes / (double)iteration_nodes : 1.0;
            int drop = prev_score == -VALUE_INFINITE ? 0 : prev_score - best;
            double scale = timeman_scale(t->best_move_changes, drop, share, stable);
            if (depth >= 4 && timeman_stop_iterating(&sh->tm, now, scale))
                break;
            if (depth < 4 && timeman_stop_iterating(&sh->tm, now, 1.0))
                break;
        }
        prev_score = best;
    }

    if (t->id != 0)
        return res;

    if (sh->limit_strength && lines > 1) {
        int scores[MAX_MOVES];
        for (int i = 0; i < lines; i++)
            scores[i] = t->root_moves[i].score != -VALUE_INFINITE ? t->root_moves[i].score
                                                                  : t->root_moves[i].previous_score;
        int pick = strength_pick(scores, lines, sh->elo, &sh->seed);
        if (pick > 0) {
            RootMove tmp = t->root_moves[0];
            t->root_moves[0] = t->root_moves[pick];
            t->root_moves[pick] = tmp;
        }
    }

    strength_pause(t);

    /* The last line shown must agree with the move played and say how far the search
     * went: after an iteration cut short (by the clock, a node limit or stop; GUIs record
     * the last depth, time and nodes they saw) or when the strength limit picked another
     * move, one more line goes out. */
    if (t->completed_depth >= 1 && (search_aborted(t) || t->root_moves[0].move != reported_best))
        report_line(t, t->root_depth, 0, true);

    RootMove *best = &t->root_moves[0];
    res.best = best->move;
    res.ponder = ponder_move(t, best);
    res.score =
        syzygy_root_score(&sh->tb_root, best->move,
                          best->score != -VALUE_INFINITE ? best->score : best->previous_score);
    res.depth = t->completed_depth;
    res.nodes = search_total_nodes(t);
    res.time_ms = time_now_ms() - t->start_ms;
    return res;
}

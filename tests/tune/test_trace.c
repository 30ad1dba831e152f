/* The evaluation trace (eval/trace.h) against the evaluation itself: for every position
 * of the EPD suites, every position one legal move later, every position of the games in
 * tests/data/pgn and a set of endgames, the score rebuilt from the packed trace equals
 * evaluate(), with the default weights and with randomly changed ones; the smooth score's
 * analytic gradient equals central finite differences. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "formats/epd.h"
#include "formats/pgn.h"
#include "suites.h"
#include "test.h"
#include "tune/coeffs.h"

typedef struct {
    char (*fens)[128];
    int count, capacity;
} FenList;

static void add_fen(FenList *list, const Position *pos)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 4096;
        list->fens = realloc(list->fens, sizeof *list->fens * (size_t)list->capacity);
        if (!list->fens)
            abort();
    }
    position_to_fen(pos, list->fens[list->count++]);
}

static const char *const ENDGAMES[] = {
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",            /* KQK */
    "8/8/8/3k4/8/8/2BNK3/8 b - - 0 1",           /* KBNK */
    "8/8/3k4/8/3P4/8/3K4/8 w - - 0 1",           /* KPK */
    "8/8/8/8/2k5/8/P7/K7 b - - 0 1",             /* KPK draw */
    "8/5k2/8/3b4/8/2B2K2/5P2/8 w - - 0 1",       /* opposite bishops, a pawn */
    "8/5k2/4p3/3b4/8/2B2K2/5PP1/8 w - - 0 1",    /* opposite bishops, pawns */
    "8/5k2/4p3/3br3/8/2B1R1K1/5PP1/8 b - - 0 1",  /* opposite bishops and rooks */
    "8/5k2/8/3r4/8/2B2K2/4R3/8 w - - 0 1",       /* pawnless, a bishop up */
    "8/5k2/8/8/8/2N2K2/8/8 w - - 0 1",           /* insufficient */
    "7k/8/6KP/8/8/8/8/8 b - - 0 1",              /* rook pawn, king in front */
    "7k/8/5BKP/8/8/8/8/8 b - - 0 1",             /* wrong bishop */
    "8/8/8/3k4/8/8/8/R3K3 w Q - 0 1",            /* KRK */
    "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",       /* pawn ending */
    "8/p7/8/8/8/8/6k1/K7 b - - 0 1",             /* unstoppable */
    "r3k2r/pppq1ppp/2n1bn2/2bpp3/2BPP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "2kr3r/ppp2ppp/2n1b3/3q4/3Q4/2N1B3/PPP2PPP/2KR3R w - - 0 1",
    "r4rk1/1b3ppp/p3pq2/1p1nN3/3P4/P1QB4/1P3PPP/R4RK1 w - - 0 1",
};

/* A suite position and every position one legal move later. */
static void add_with_children(void *ctx, Position *pos)
{
    FenList *list = ctx;
    add_fen(list, pos);
    Move moves[MAX_MOVES];
    int n = (int)(generate_moves(pos, moves, GEN_ALL) - moves);
    for (int i = 0; i < n; i++) {
        make_move(pos, moves[i]);
        add_fen(list, pos);
        unmake_move(pos, moves[i]);
    }
}

static void collect_pgn(FenList *list)
{
    char path[512];
    test_data_path("pgn/Nakamura.pgn", path, sizeof path);
    PgnReader *r = pgn_open(path, NULL, NULL);
    if (!CHECK_MSG(r != NULL, "cannot open %s", path))
        return;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF)
        if (it->event == PGN_MOVE && it->depth == 0)
            add_fen(list, it->position);
    pgn_close(r);
}

static FenList *positions(void)
{
    static FenList list;
    if (list.count)
        return &list;
    Position pos;
    char err[160];
    for (size_t i = 0; i < sizeof ENDGAMES / sizeof ENDGAMES[0]; i++)
        if (CHECK_MSG(position_from_fen(&pos, ENDGAMES[i], err, sizeof err, NULL), "%s: %s", ENDGAMES[i], err))
            add_fen(&list, &pos);
    for_each_suite_position(add_with_children, &list);
    collect_pgn(&list);
    return &list;
}

/* Evaluates every position with the live weights p and compares the rebuilt scores. */
static void compare_all(const EvalParams *p, const char *label)
{
    FenList *list = positions();
    TuneLayout layout;
    tune_layout_init(&layout);
    double *theta = malloc(sizeof(double) * (size_t)layout.count);
    EvalCoeffs *trace = malloc(sizeof *trace);
    TuneCoef *pool = malloc(sizeof(TuneCoef) * 4 * PARAM_SLOTS);
    if (!CHECK(theta && trace && pool))
        return;
    tune_theta_from_params(&layout, p, theta);
    static Position pos;
    char err[160];
    int special = 0, danger = 0, scaled = 0, mismatches = 0;
    double worst_smooth = 0;
    for (int i = 0; i < list->count; i++) {
        if (!position_from_fen(&pos, list->fens[i], err, sizeof err, NULL))
            continue;
        int v = evaluate(&pos, NULL);
        int vt = evaluate_traced(&pos, trace);
        TunePos tp;
        size_t n = tune_pack_size(trace);
        if (!CHECK_MSG(n <= 4 * (size_t)PARAM_SLOTS, "%zu coefficients", n))
            break;
        tune_pack(trace, 0.5f, &tp, pool, 0);
        int exact = tune_eval_exact(&tp, pool, &layout, p);
        int stm = pos.side == WHITE ? exact : -exact;
        special += (tp.flags & TP_SPECIAL) != 0;
        danger += (tp.flags & (TP_DANGER_WHITE | TP_DANGER_BLACK)) != 0;
        scaled += !(tp.flags & TP_SPECIAL) && (tp.n_scale[WHITE] || tp.n_scale[BLACK]);
        if (v != vt || v != stm) {
            if (++mismatches <= 10)
                CHECK_MSG(false, "%s: %s: evaluate %d, traced %d, rebuilt %d", label, list->fens[i], v, vt, stm);
            continue;
        }
        /* The smooth score differs from the integer one by rounding only. */
        double smooth = tune_eval(&tp, pool, &layout, theta, NULL, 0);
        if (fabs(smooth - exact) > worst_smooth)
            worst_smooth = fabs(smooth - exact);
    }
    CHECK_MSG(mismatches == 0, "%s: %d of %d positions differ", label, mismatches, list->count);
    CHECK_MSG(worst_smooth <= 12, "%s: smooth score off by %.2f", label, worst_smooth);
    /* The sample must exercise every part of the trace. */
    CHECK_MSG(list->count > 50000 && special >= 5 && danger > 1000 && scaled >= 3,
              "%s: %d positions, %d special, %d with king danger, %d scaled", label, list->count, special,
              danger, scaled);
    test_log("%s: %d positions (%d special, %d king danger, %d scaled), smooth within %.2f", label,
             list->count, special, danger, scaled, worst_smooth);
    free(theta);
    free(trace);
    free(pool);
}

TEST(trace_rebuilds_evaluation_default_weights)
{
    eval_init();
    compare_all(&DEFAULT_PARAMS, "default weights");
}

/* Every weight changed by up to +-25% and +-12, deterministically. */
static void perturbed(EvalParams *p, unsigned seed)
{
    *p = DEFAULT_PARAMS;
    int n = params_tunable_count();
    for (int k = 0; k < n; k++) {
        seed = seed * 1103515245u + 12345u;
        int v = params_get(p, k);
        int r = (int)((seed >> 8) % 51) - 25, a = (int)((seed >> 20) % 25) - 12;
        params_set(p, k, v + v * r / 100 + a);
    }
}

TEST(trace_rebuilds_evaluation_changed_weights)
{
    eval_init();
    EvalParams p;
    perturbed(&p, 7);
    eval_set_params(&p);
    compare_all(&p, "changed weights");
    eval_set_params(&DEFAULT_PARAMS);
}

TEST(trace_gradient_matches_finite_differences)
{
    eval_init();
    FenList *list = positions();
    TuneLayout layout;
    tune_layout_init(&layout);
    int n = layout.count;
    double *theta = malloc(sizeof(double) * (size_t)n), *grad = malloc(sizeof(double) * (size_t)n);
    EvalCoeffs *trace = malloc(sizeof *trace);
    TuneCoef *pool = malloc(sizeof(TuneCoef) * 4 * PARAM_SLOTS);
    if (!CHECK(theta && grad && trace && pool))
        return;
    EvalParams p;
    perturbed(&p, 11);
    /* Weights off the integers, so that no tie of shelter candidates sits on theta. */
    tune_theta_from_params(&layout, &p, theta);
    for (int k = 0; k < n; k++)
        theta[k] += 0.01 * (k % 7) + 0.003;
    static Position pos;
    char err[160];
    int checked = 0, bad = 0, nonlinear = 0;
    for (int i = 0; i < list->count; i += 97) {
        if (!position_from_fen(&pos, list->fens[i], err, sizeof err, NULL))
            continue;
        evaluate_traced(&pos, trace);
        TunePos tp;
        tune_pack(trace, 0.5f, &tp, pool, 0);
        memset(grad, 0, sizeof(double) * (size_t)n);
        tune_eval(&tp, pool, &layout, theta, grad, 1.0);
        nonlinear += (tp.flags & (TP_DANGER_WHITE | TP_DANGER_BLACK)) != 0;
        for (int k = 0; k < n; k++) {
            const double h = 1e-4;
            double save = theta[k];
            theta[k] = save + h;
            double up = tune_eval(&tp, pool, &layout, theta, NULL, 0);
            theta[k] = save - h;
            double down = tune_eval(&tp, pool, &layout, theta, NULL, 0);
            theta[k] = save;
            double fd = (up - down) / (2 * h);
            checked++;
            /* At a kink (two shelter candidates tied, the danger crossing 0 or its clamp)
             * the analytic value is one of the one-sided slopes. */
            double mid = tune_eval(&tp, pool, &layout, theta, NULL, 0);
            double right = (up - mid) / h, left = (mid - down) / h;
            if (fabs(fd - grad[k]) > 1e-4 * (1 + fabs(fd)) && fabs(right - grad[k]) > 1e-3 * (1 + fabs(right))
                && fabs(left - grad[k]) > 1e-3 * (1 + fabs(left))) {
                char name[64];
                if (++bad <= 10)
                    CHECK_MSG(false, "%s, %s: analytic %.6f, finite difference %.6f", list->fens[i],
                              params_name(k, name, sizeof name), grad[k], fd);
            }
        }
    }
    CHECK_MSG(bad == 0, "%d of %d derivatives differ", bad, checked);
    CHECK_MSG(nonlinear > 20, "only %d positions with king danger", nonlinear);
    test_log("%d derivatives checked, %d positions with king danger", checked, nonlinear);
    free(theta);
    free(grad);
    free(trace);
    free(pool);
}

/* The tuner's parts on problems with a known answer: positions labelled by the sigmoid
 * of the evaluation under known weights (a knight worth 450 instead of 330, a known K),
 * from which the K fit and every optimiser must recover those values; the quiet-leaf
 * search; reading labelled EPD. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "formats/epd.h"
#include "suites.h"
#include "test.h"
#include "tune/optimize.h"
#include "tune/quiet_leaf.h"

typedef struct {
    TuneSet *set;
    int stride;
    long n;
} SuiteSample;

/* Every stride-th position one legal move after a suite position. */
static void add_sampled_children(void *ctx, Position *pos)
{
    SuiteSample *s = ctx;
    char fen[128];
    Move moves[MAX_MOVES];
    int count = (int)(generate_moves(pos, moves, GEN_ALL) - moves);
    for (int i = 0; i < count; i++)
        if (s->n++ % s->stride == 0) {
            make_move(pos, moves[i]);
            position_to_fen(pos, fen);
            tune_set_add(s->set, fen, 0.5f);
            unmake_move(pos, moves[i]);
        }
}

/* Every position of the EPD suites and each one legal move later (a few thousand). */
static void add_suite_positions(TuneSet *set, int stride)
{
    SuiteSample s = { set, stride, 0 };
    for_each_suite_position(add_sampled_children, &s);
}

typedef struct {
    TuneSet set;
    TuneLayout layout;
    double *truth, *theta, *grad;
    int knight_mg, knight_eg;
} Problem;

/* Labels = sigmoid(k * score under weights with the knight at 450/450). */
static bool make_problem(Problem *pb, double k)
{
    eval_init();
    tune_set_init(&pb->set);
    tune_layout_init(&pb->layout);
    int n = pb->layout.count;
    pb->truth = malloc(sizeof(double) * (size_t)n);
    pb->theta = malloc(sizeof(double) * (size_t)n);
    pb->grad = malloc(sizeof(double) * (size_t)n);
    if (!CHECK(pb->truth && pb->theta && pb->grad))
        return false;
    add_suite_positions(&pb->set, 7);
    EvalParams p = DEFAULT_PARAMS;
    p.piece_value[KNIGHT] = S(450, 450);
    eval_set_params(&p);
    bool built = tune_set_build(&pb->set, 2);
    eval_set_params(&DEFAULT_PARAMS);
    if (!CHECK(built) || !CHECK_MSG(pb->set.packed > 8000, "%ld positions", pb->set.packed))
        return false;
    tune_theta_from_params(&pb->layout, &p, pb->truth);
    for (long i = 0; i < pb->set.packed; i++) {
        TunePos *tp = &pb->set.pos[i];
        tp->result = (float)tune_sigmoid(k, tune_eval(tp, pb->set.pool, &pb->layout, pb->truth, NULL, 0));
    }
    tune_theta_from_params(&pb->layout, &DEFAULT_PARAMS, pb->theta);
    int slot = TSLOT(piece_value[KNIGHT]);
    pb->knight_mg = pb->layout.mg[slot];
    pb->knight_eg = pb->layout.eg[slot];
    return true;
}

static void free_problem(Problem *pb)
{
    tune_set_free(&pb->set);
    free(pb->truth);
    free(pb->theta);
    free(pb->grad);
}

TEST(tuner_fits_known_k)
{
    Problem pb;
    if (!make_problem(&pb, 1.3))
        return;
    /* With the true weights the loss is 0 at K = 1.3 and only there. */
    double k = tune_fit_k(&pb.set, &pb.layout, pb.truth, OBJ_MSQ, 2);
    CHECK_MSG(fabs(k - 1.3) < 0.002, "fitted K %.5f, expected 1.3", k);
    k = tune_fit_k(&pb.set, &pb.layout, pb.truth, OBJ_LOG, 2);
    CHECK_MSG(fabs(k - 1.3) < 0.002, "fitted K %.5f with the log loss, expected 1.3", k);
    free_problem(&pb);
}

TEST(tuner_recovers_knight_value_with_each_optimizer)
{
    Problem pb;
    if (!make_problem(&pb, 1.0))
        return;
    const TuneOptimizer methods[] = { OPT_ADAM, OPT_ADAGRAD, OPT_ADAPTIVE };
    const TuneObjective objectives[] = { OBJ_MSQ, OBJ_LOG, OBJ_MSQLOG };
    const double rates[] = { 4.0, 20.0, 1.0 };
    for (int m = 0; m < 3; m++) {
        tune_theta_from_params(&pb.layout, &DEFAULT_PARAMS, pb.theta);
        /* The same start whatever params.c holds: 120 cp below the truth. */
        pb.theta[pb.knight_mg] = pb.theta[pb.knight_eg] = 330;
        Optimizer opt;
        if (!CHECK(optimizer_init(&opt, methods[m], pb.layout.count, rates[m])))
            break;
        /* The log losses are not 0 at the truth (the labels' own entropy). */
        double floor_loss = tune_loss(&pb.set, &pb.layout, pb.truth, 1.0, objectives[m], NULL, 2);
        double first = tune_loss(&pb.set, &pb.layout, pb.theta, 1.0, objectives[m], NULL, 2), last = first;
        for (int it = 0; it < 200; it++) {
            last = tune_loss(&pb.set, &pb.layout, pb.theta, 1.0, objectives[m], pb.grad, 2);
            /* Only the knight's value is free: the answer is then unique. */
            for (int j = 0; j < pb.layout.count; j++)
                if (j != pb.knight_mg && j != pb.knight_eg)
                    pb.grad[j] = 0;
            optimizer_step(&opt, pb.theta, pb.grad);
        }
        optimizer_free(&opt);
        CHECK_MSG(fabs(pb.theta[pb.knight_mg] - 450) < 3 && fabs(pb.theta[pb.knight_eg] - 450) < 3,
                  "method %d: knight %.2f / %.2f, expected 450 / 450 (loss %.3g -> %.3g)", m,
                  pb.theta[pb.knight_mg], pb.theta[pb.knight_eg], first, last);
        CHECK_MSG(last - floor_loss < (first - floor_loss) / 100, "method %d: loss %.6g -> %.6g, %.6g at the truth",
                  m, first, last, floor_loss);
        test_log("method %d: knight %.2f / %.2f, loss %.3g -> %.3g", m, pb.theta[pb.knight_mg],
                 pb.theta[pb.knight_eg], first, last);
    }
    free_problem(&pb);
}

TEST(tuner_all_weights_free_lowers_loss)
{
    Problem pb;
    if (!make_problem(&pb, 1.0))
        return;
    Optimizer opt;
    if (!CHECK(optimizer_init(&opt, OPT_ADAM, pb.layout.count, 1.0)))
        return;
    double first = tune_loss(&pb.set, &pb.layout, pb.theta, 1.0, OBJ_MSQ, NULL, 2), last = first;
    for (int it = 0; it < 150; it++) {
        last = tune_loss(&pb.set, &pb.layout, pb.theta, 1.0, OBJ_MSQ, pb.grad, 2);
        optimizer_step(&opt, pb.theta, pb.grad);
    }
    optimizer_free(&opt);
    /* The knight's value alone is not recovered here: a constant added to every knight
     * square of the piece-square table does the same. */
    CHECK_MSG(last < first / 50, "loss %.4g -> %.4g", first, last);
    test_log("all free: loss %.4g -> %.4g, knight %.1f / %.1f", first, last, pb.theta[pb.knight_mg],
             pb.theta[pb.knight_eg]);
    free_problem(&pb);
}

TEST(tuner_qleaf_resolves_captures_and_drops_mates)
{
    eval_init();
    static Position pos;
    char err[160], fen[128];
    QLeafSearch qs = { NULL, 0 };
    /* White to move takes the hanging rook on d5 (Qxd5), and nothing is left to take. */
    CHECK(position_from_fen(&pos, "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1", err, sizeof err, NULL));
    CHECK(qleaf_advance(&qs, &pos));
    position_to_fen(&pos, fen);
    CHECK_MSG(!strncmp(fen, "4k3/8/8/3Q4/8/8/8/4K3 b", 23), "leaf %s", fen);
    /* A defended pawn is not taken by the queen: the leaf is the position itself. */
    CHECK(position_from_fen(&pos, "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", err, sizeof err, NULL));
    CHECK(qleaf_advance(&qs, &pos));
    position_to_fen(&pos, fen);
    CHECK_MSG(!strncmp(fen, "4k3/8/2p5/3p4/8/8/3Q4/4K3 w", 27), "leaf %s", fen);
    /* Checkmated: no quiet leaf. */
    CHECK(position_from_fen(&pos, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", err, sizeof err, NULL));
    CHECK(!qleaf_advance(&qs, &pos));
    CHECK(qs.nodes > 0);
}

TEST(tuner_reads_labelled_epd)
{
    char path[] = "/tmp/saavedra-tune-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    FILE *f = fdopen(fd, "w");
    fputs("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c2 \"1.0\";\n"
          "\n# comment\n"
          "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - c2 \"0.5\";\n"
          "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"no result\";\n"
          "this is not a position c2 \"1.0\";\n"
          "4k3/8/8/8/8/8/8/4K2R w K - c2 \"0.0\";\n"
          "4k3/8/8/8/8/8/8/4K2R w K - c2 \"2.0\";\n", f);
    fclose(f);
    TuneSet set;
    tune_set_init(&set);
    FILE *sink = fopen("/dev/null", "w");
    bool ok = tune_set_read(&set, path, 0, sink ? sink : stderr);
    if (sink)
        fclose(sink);
    CHECK(ok);
    CHECK_EQ(set.count, 3);
    CHECK_EQ(set.read_errors, 3);
    if (set.count == 3) {
        CHECK(set.label[0] == 1.0f && set.label[1] == 0.5f && set.label[2] == 0.0f);
        CHECK(!strncmp(set.text + set.fen_offset[2], "4k3/8/8/8/8/8/8/4K2R w K -", 26));
    }
    CHECK(tune_set_build(&set, 2));
    CHECK_EQ(set.packed, 3);
    tune_set_free(&set);
    remove(path);
    TuneSet missing;
    tune_set_init(&missing);
    sink = fopen("/dev/null", "w");
    CHECK(!tune_set_read(&missing, "/nonexistent/x.epd", 0, sink ? sink : stderr));
    if (sink)
        fclose(sink);
}

/* Which weights a tuning run moves (tune/weightset.c): the mating gradients frozen by
 * default, -p and -F prefixes, and the endgame scales kept within 1..64. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "eval/params.h"
#include "test.h"
#include "tune/weightset.h"

static int index_of(const char *wanted)
{
    char name[96];
    for (int k = 0; k < params_tunable_count(); k++)
        if (!strcmp(params_name(k, name, sizeof name), wanted))
            return k;
    return -1;
}

TEST(weightset_freezes_mating_gradients_by_default)
{
    TuneLayout L;
    tune_layout_init(&L);
    WeightSet w;
    int n = weightset_init(&w, &L, NULL, WEIGHTSET_DEFAULT_FROZEN);
    int mate = index_of("mate_kbnk_corner"), knight = index_of("piece_value[1].mg");
    CHECK(mate >= 0 && knight >= 0);
    CHECK_EQ(n, L.count - 3); /* mate_push_to_edge, mate_kings_close, mate_kbnk_corner */
    CHECK(!w.free_weight[mate] && w.free_weight[knight]);
    double grad[4096];
    CHECK(L.count <= 4096);
    for (int k = 0; k < L.count; k++)
        grad[k] = 1.0;
    weightset_mask(&w, grad);
    CHECK(grad[mate] == 0 && grad[knight] == 1.0);
    weightset_free(&w);
    /* "none" frees them; -p narrows, -F removes from what -p chose. */
    CHECK_EQ(weightset_init(&w, &L, NULL, "none"), L.count);
    weightset_free(&w);
    CHECK_EQ(weightset_init(&w, &L, "piece_value,mate_", "mate_kings"), 2 * 6 + 2);
    CHECK(w.free_weight[mate] && !w.free_weight[index_of("mate_kings_close")]);
    weightset_free(&w);
    CHECK_EQ(weightset_init(&w, &L, "mate_", NULL), 3);
    weightset_free(&w);
    CHECK_EQ(weightset_init(&w, &L, "mate_", "mate_"), 0);
    weightset_free(&w);
}

TEST(weightset_keeps_scales_within_their_meaning)
{
    TuneLayout L;
    tune_layout_init(&L);
    WeightSet w;
    CHECK(weightset_init(&w, &L, NULL, NULL) == L.count);
    double theta[4096];
    CHECK(L.count <= 4096);
    for (int k = 0; k < L.count; k++)
        theta[k] = -500.0;
    int edge = index_of("scale_pawnless_small_edge"), ocb = index_of("scale_ocb_with_pieces");
    int pawn = index_of("piece_value[0].mg");
    theta[ocb] = 90.0;
    int moved = weightset_project(&w, theta);
    CHECK_EQ(theta[edge], 1.0);
    CHECK_EQ(theta[ocb], 64.0);
    CHECK_EQ(theta[pawn], -500.0); /* unbounded: the data decides */
    CHECK_EQ(moved, 4);            /* the four scale_ weights */
    CHECK_EQ(weightset_project(&w, theta), 0);
    weightset_free(&w);
    CHECK(weightset_name_matches("mate_kings_close", "piece_value,mate_"));
    CHECK(!weightset_name_matches("mate_kings_close", "none"));
    CHECK(!weightset_name_matches("mate_kings_close", NULL));
    CHECK(!weightset_name_matches("mate_kings_close", ",,"));
}

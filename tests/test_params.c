/* Parameter table tests: the descriptions cover the struct exactly, Score packing,
 * tunable access, the C-source round trip a tuner relies on, and that changed weights
 * reach the evaluation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/evaluate.h"
#include "eval/params.h"
#include "test.h"

TEST(params_score_packing)
{
    const int values[] = { -32000, -1000, -129, -1, 0, 1, 127, 255, 256, 1000, 32000 };
    for (int i = 0; i < 11; i++)
        for (int j = 0; j < 11; j++) {
            Score s = make_score(values[i], values[j]);
            CHECK_MSG(mg_value(s) == values[i] && eg_value(s) == values[j], "S(%d, %d) -> %d, %d",
                      values[i], values[j], mg_value(s), eg_value(s));
        }
    Score a = S(-20, 35), b = S(7, -50);
    CHECK_EQ(mg_value(a + b), -13);
    CHECK_EQ(eg_value(a + b), -15);
    CHECK_EQ(mg_value(a - b), -27);
    CHECK_EQ(eg_value(a - b), 85);
    CHECK_EQ(eg_value(a * 3), 105);
    CHECK_EQ(mg_value(score_mul(b, -4)), -28);
}

TEST(params_info_tiles_struct)
{
    size_t expect = 0;
    for (int i = 0; i < PARAM_INFO_COUNT; i++) {
        const ParamInfo *info = &PARAM_INFO[i];
        CHECK_MSG(info->offset == expect, "%s at offset %zu, expected %zu", info->name, info->offset, expect);
        CHECK_MSG(info->count >= 1 && info->per_line >= 1, "%s: count %d", info->name, info->count);
        CHECK_MSG(info->rows <= 1 || info->count % info->rows == 0, "%s: rows %d", info->name, info->rows);
        expect = info->offset + 4 * (size_t)info->count;
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(PARAM_INFO[j].name, info->name), "duplicate %s", info->name);
    }
    CHECK_EQ(expect, sizeof(EvalParams));
}

TEST(params_tunable_access)
{
    EvalParams p = DEFAULT_PARAMS;
    int n = params_tunable_count();
    CHECK(n > 900);
    char name[64];
    /* Every tunable reads what the struct holds, and writes only itself. */
    for (int k = 0; k < n; k++) {
        int v = params_get(&p, k);
        params_set(&p, k, v + 7);
        CHECK_MSG(params_get(&p, k) == v + 7, "%s not written", params_name(k, name, sizeof name));
        if (k > 0)
            CHECK_MSG(params_get(&p, k - 1) == params_get(&DEFAULT_PARAMS, k - 1), "writing %s changed its neighbour",
                      params_name(k, name, sizeof name));
        params_set(&p, k, v);
    }
    CHECK(!memcmp(&p, &DEFAULT_PARAMS, sizeof p));
    /* Names: piece_value[1] is the knight; psqt is 2-D. */
    CHECK_STR_EQ(params_name(2, name, sizeof name), "piece_value[1].mg");
    CHECK_EQ(params_get(&p, 3), eg_value(DEFAULT_PARAMS.piece_value[KNIGHT]));
    CHECK_STR_EQ(params_name(12 + 2 * 65 + 1, name, sizeof name), "psqt[1][1].eg");
}

TEST(params_print_parse_round_trip)
{
    EvalParams p = DEFAULT_PARAMS, q;
    /* Change every value so that a parser that skips fields cannot pass. */
    int n = params_tunable_count();
    for (int k = 0; k < n; k++)
        params_set(&p, k, params_get(&p, k) + (k % 13) - 6);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!CHECK(f != NULL))
        return;
    params_print_c(&p, f);
    fclose(f);
    CHECK(strstr(text, "const EvalParams DEFAULT_PARAMS = {") == text);
    CHECK(strstr(text, ".mobility_queen = {") != NULL);
    q = DEFAULT_PARAMS;
    char err[160] = "";
    CHECK_MSG(params_parse(&q, text, err, sizeof err), "parse failed: %s", err);
    CHECK(!memcmp(&p, &q, sizeof p));

    /* The compiled-in table printed and parsed gives the defaults back. */
    free(text);
    text = NULL;
    f = open_memstream(&text, &size);
    params_print_c(&DEFAULT_PARAMS, f);
    fclose(f);
    memset(&q, 0, sizeof q);
    CHECK(params_parse(&q, text, err, sizeof err));
    CHECK(!memcmp(&DEFAULT_PARAMS, &q, sizeof q));
    free(text);
}

TEST(params_parse_rejects_bad_input)
{
    const char *bad[] = {
        ".tempo = S(1, 2), .nonsense = 3,",
        ".tempo = S(1),",
        ".tempo = 5,",                           /* a Score needs S(mg, eg) */
        ".ks_zone_attack = S(1, 2),",            /* an int is not a Score */
        ".piece_value = { S(1, 2), S(3, 4) },",  /* too few */
        ".tempo = S(1, 99999),",
        ".tempo S(1, 2),",
        "tempo = S(1, 2),",
    };
    for (int i = 0; i < 8; i++) {
        EvalParams p = DEFAULT_PARAMS;
        char err[160] = "";
        CHECK_MSG(!params_parse(&p, bad[i], err, sizeof err), "accepted: %s", bad[i]);
        CHECK_MSG(err[0] != '\0', "no message for: %s", bad[i]);
        CHECK_MSG(!memcmp(&p, &DEFAULT_PARAMS, sizeof p), "changed by a failed parse: %s", bad[i]);
    }
    EvalParams p = DEFAULT_PARAMS;
    char err[160];
    CHECK(params_parse(&p, "/* partial */ .tempo = S(3, -4), .ks_offset = 7", err, sizeof err));
    CHECK_EQ(mg_value(p.tempo), 3);
    CHECK_EQ(eg_value(p.tempo), -4);
    CHECK_EQ(p.ks_offset, 7);
    CHECK_EQ(p.bishop_pair, DEFAULT_PARAMS.bishop_pair);
}

TEST(params_changes_reach_evaluation)
{
    eval_init();
    static Position pos, iso;
    char err[160];
    if (!CHECK(position_from_fen(&pos, START_FEN, err, sizeof err, NULL))
        || !CHECK(position_from_fen(&iso, "4k3/pp3ppp/8/8/8/8/P1P2PPP/4K3 w - - 0 1", err, sizeof err, NULL)))
        return;
    int before = evaluate(&pos, NULL), iso_before = evaluate(&iso, NULL);
    PawnTable *table = pawn_table_new();
    CHECK_EQ(evaluate(&iso, table), iso_before); /* now cached with the old weights */

    EvalParams p = DEFAULT_PARAMS;
    p.tempo = S(0, 0);
    p.pawn_isolated = make_score(mg_value(p.pawn_isolated) - 100, eg_value(p.pawn_isolated) - 100);
    eval_set_params(&p);
    pawn_table_clear(table);
    CHECK_EQ(evaluate(&pos, NULL), 0); /* symmetric position, no tempo */
    /* White has two isolated pawns (a2, c2), Black none: 200 more to Black. */
    int iso_after = evaluate(&iso, NULL);
    CHECK_MSG(iso_after <= iso_before - 190, "isolated pawns: %d before, %d after", iso_before, iso_after);
    CHECK_EQ(evaluate(&iso, table), iso_after);

    eval_set_params(&DEFAULT_PARAMS);
    pawn_table_clear(table);
    CHECK_EQ(evaluate(&pos, NULL), before);
    CHECK_EQ(evaluate(&iso, table), iso_before);
    pawn_table_free(table);
}

TEST(params_source_table_is_canonical)
{
    /* src/eval/params.c holds the table exactly as params_print_c writes it, so a tuner that
     * splices its output between the markers changes only the values. */
    char path[512];
    test_data_path("../../src/eval/params.c", path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s", path))
        return;
    static char source[1 << 17];
    size_t len = fread(source, 1, sizeof source - 1, f);
    fclose(f);
    source[len] = '\0';
    const char *begin = strstr(source, "const EvalParams DEFAULT_PARAMS = {");
    const char *end = strstr(source, "/* ---- END TUNED PARAMETERS ---- */");
    if (!CHECK(begin && end && begin < end))
        return;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!CHECK(out != NULL))
        return;
    params_print_c(&DEFAULT_PARAMS, out);
    fclose(out);
    CHECK_EQ((long long)(end - begin), (long long)size);
    CHECK(!strncmp(begin, text, size));
    free(text);
}

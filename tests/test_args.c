/* Options of the command-line programs (util/args.h): types, ranges, switches, the stop
 * at the first file name, and the one-line reasons for what is refused. */
#include <stdint.h>
#include <string.h>

#include "util/args.h"
#include "test.h"

typedef struct {
    const char *out;
    int games;
    uint64_t seed;
    size_t batch;
    double valid;
    float lr;
    bool resume;
} Opts;

static int parse(Opts *o, int argc, char **argv, char *err, size_t size)
{
    const ArgSpec specs[] = {
        { "-o", ARG_TEXT, &o->out, 0, 0 },        { "-games", ARG_INT, &o->games, 1, 1000 },
        { "--seed", ARG_U64, &o->seed, 0, 0 },    { "-batch", ARG_SIZE, &o->batch, 1, 1e7 },
        { "-valid", ARG_REAL, &o->valid, 0, 0.5 }, { "-lr", ARG_FLOAT, &o->lr, 1e-6, 0.5 },
        { "-resume", ARG_SWITCH, &o->resume, 0, 0 },
    };
    return args_parse(argc, argv, specs, ARGS_COUNT(specs), err, size);
}

TEST(args_every_type_read_into_its_target)
{
    char *argv[] = { "prog", "-o", "net.nnue", "-games", "1000", "--seed", "18446744073709551615", "-batch", "4096",
                     "-valid", "0.05", "-lr", "2e-3", "-resume", "-games", "7", NULL };
    Opts o = { 0 };
    char err[160] = "";
    CHECK_EQ(parse(&o, 16, argv, err, sizeof err), 16);
    CHECK(o.out && !strcmp(o.out, "net.nnue"));
    CHECK_EQ(o.games, 7); /* repeated: the last wins */
    CHECK(o.seed == UINT64_MAX);
    CHECK(o.batch == 4096);
    CHECK(o.valid == 0.05);
    CHECK(o.lr > 0.00199f && o.lr < 0.00201f);
    CHECK(o.resume);
}

TEST(args_stop_at_the_first_file)
{
    char *a[] = { "prog", "-games", "3", "games.pgn", "-games", "4", NULL };
    Opts o = { 0 };
    char err[160];
    CHECK_EQ(parse(&o, 6, a, err, sizeof err), 3);
    CHECK_EQ(o.games, 3);
    char *b[] = { "prog", "--", "-file-with-a-dash.pgn", NULL };
    CHECK_EQ(parse(&o, 3, b, err, sizeof err), 2);
    char *c[] = { "prog", "-", NULL };
    CHECK_EQ(parse(&o, 2, c, err, sizeof err), 1);
    char *d[] = { "prog", NULL };
    CHECK_EQ(parse(&o, 1, d, err, sizeof err), 1);
}

TEST(args_refused_with_a_reason)
{
    struct {
        const char *option, *value, *reason;
    } bad[] = {
        { "-games", "0", "-games wants a whole number from 1 to 1000, not '0'" },
        { "-games", "1001", "-games wants a whole number from 1 to 1000, not '1001'" },
        { "-games", "12abc", "-games wants a whole number from 1 to 1000, not '12abc'" },
        { "-games", "-5", "-games wants a whole number from 1 to 1000, not '-5'" },
        { "-games", " 5", "-games wants a whole number from 1 to 1000, not ' 5'" },
        { "-games", "", "-games wants a whole number from 1 to 1000, not ''" },
        { "--seed", "18446744073709551616", "--seed wants a whole number of at least 0, not '18446744073709551616'" },
        { "--seed", "0x10", "--seed wants a whole number of at least 0, not '0x10'" },
        { "-valid", "0.6", "-valid wants a number from 0 to 0.5, not '0.6'" },
        { "-valid", "nan", "-valid wants a number from 0 to 0.5, not 'nan'" },
        { "-lr", "0", "-lr wants a number from 1e-06 to 0.5, not '0'" },
        { "-lr", "1e999", "-lr wants a number from 1e-06 to 0.5, not '1e999'" },
        { "-batch", "1e3", "-batch wants a whole number from 1 to 10000000, not '1e3'" },
        { "-colour", "white", "unknown option -colour" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[] = { "prog", "-games", "9", (char *)bad[i].option, (char *)bad[i].value, NULL };
        Opts o = { 0 };
        char err[160] = "";
        CHECK_EQ(parse(&o, 5, argv, err, sizeof err), -1);
        CHECK_MSG(!strcmp(err, bad[i].reason), "%s %s: '%s'", bad[i].option, bad[i].value, err);
        CHECK_EQ(o.games, 9); /* read before the bad one */
    }
    char *missing[] = { "prog", "-o", NULL };
    Opts o = { 0 };
    char err[160] = "";
    CHECK_EQ(parse(&o, 2, missing, err, sizeof err), -1);
    CHECK(!strcmp(err, "-o needs a value"));
}

TEST(args_real_for_a_number_or_a_word)
{
    double x = 7;
    CHECK(args_real("0.711", 0.1, 4, &x) && x == 0.711);
    CHECK(!args_real("auto", 0.1, 4, &x) && x == 0.711);
    CHECK(!args_real("5", 0.1, 4, &x));
    CHECK(!args_real("", 0.1, 4, &x));
    CHECK(!args_real("1.5x", 0.1, 4, &x));
}

/* Command-line flags: sizes, thread counts, files, subcommand split, errors. */
#include <string.h>

#include "util/cmdline.h"
#include "test.h"

TEST(cmdline_size_units)
{
    long mb = 0;
    CHECK(parse_size_mb("256M", &mb) && mb == 256);
    CHECK(parse_size_mb("1G", &mb) && mb == 1024);
    CHECK(parse_size_mb("64", &mb) && mb == 64);
    CHECK(parse_size_mb("2gb", &mb) && mb == 2048);
    CHECK(parse_size_mb("512K", &mb) && mb == 1);
    CHECK(!parse_size_mb("", &mb));
    CHECK(!parse_size_mb("12X", &mb));
    CHECK(!parse_size_mb("-5", &mb));
    CHECK(!parse_size_mb("0", &mb));
    CHECK(!parse_size_mb("M", &mb));
}

TEST(cmdline_flags_then_subcommand)
{
    char *argv[] = {"saavedra", "-H", "1G", "-c", "3", "-t", "-rc", "my.rc", "-l", "log.txt",
                    "test", "suite.epd", "-t", "1", NULL};
    CmdLine cl;
    char err[200];
    if (!CHECK(cmdline_parse(14, argv, &cl, err, sizeof err)))
        return;
    CHECK_EQ(cl.hash_mb, 1024);
    CHECK_EQ(cl.threads, 3);
    CHECK(cl.trace);
    CHECK_STR_EQ(cl.rc_path, "my.rc");
    CHECK_STR_EQ(cl.log_path, "log.txt");
    CHECK_EQ(cl.sub_argc, 4);
    CHECK_STR_EQ(cl.sub_argv[0], "test");
    CHECK_STR_EQ(cl.sub_argv[2], "-t");
}

TEST(cmdline_defaults_and_errors)
{
    char *plain[] = {"saavedra", NULL};
    CmdLine cl;
    char err[200];
    CHECK(cmdline_parse(1, plain, &cl, err, sizeof err));
    CHECK_EQ(cl.hash_mb, -1);
    CHECK_EQ(cl.threads, -1);
    CHECK(!cl.trace && !cl.help && cl.rc_path == NULL && cl.sub_argc == 0);

    char *bad_size[] = {"saavedra", "-H", "lots", NULL};
    CHECK(!cmdline_parse(3, bad_size, &cl, err, sizeof err));
    CHECK(strstr(err, "-H") != NULL);
    char *missing[] = {"saavedra", "-c", NULL};
    CHECK(!cmdline_parse(2, missing, &cl, err, sizeof err));
    char *unknown[] = {"saavedra", "--frobnicate", NULL};
    CHECK(!cmdline_parse(2, unknown, &cl, err, sizeof err));
    CHECK(strstr(err, "--frobnicate") != NULL);
}

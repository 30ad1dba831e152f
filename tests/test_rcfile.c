/* engine.rc parser: comments, quoting, bad lines warned with their line numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rcfile.h"
#include "test.h"

typedef struct {
    char keys[8][64];
    char values[8][128];
    int count;
    char warnings[8][512];
    int warn_count;
} RcCapture;

static bool capture_apply(void *ctx, const char *key, const char *value, char *err, size_t err_size)
{
    RcCapture *c = ctx;
    if (rc_key_equal(key, "unknown")) {
        snprintf(err, err_size, "unknown option '%s'", key);
        return false;
    }
    if (c->count < 8) {
        snprintf(c->keys[c->count], sizeof c->keys[0], "%s", key);
        snprintf(c->values[c->count], sizeof c->values[0], "%s", value);
        c->count++;
    }
    return true;
}

static void capture_warn(void *ctx, const char *msg)
{
    RcCapture *c = ctx;
    if (c->warn_count < 8)
        snprintf(c->warnings[c->warn_count++], sizeof c->warnings[0], "%s", msg);
}

static RcResult parse_text(const char *text, RcCapture *c)
{
    memset(c, 0, sizeof *c);
    RcSink sink = {capture_apply, c, capture_warn, c};
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    RcResult r = rcfile_read_stream(f, "test.rc", &sink);
    fclose(f);
    return r;
}

TEST(rcfile_parses_keys_values_and_comments)
{
    RcCapture c;
    RcResult r = parse_text("# a comment\n"
                            "\n"
                            "hash = 256   # trailing comment\n"
                            "  Move Overhead=100\r\n"
                            "book file = \"my book#1.bin\"\n"
                            "syzygy_path = /tb/a:/tb/b\n", &c);
    CHECK_EQ(r.applied, 4);
    CHECK_EQ(r.warnings, 0);
    if (!CHECK_EQ(c.count, 4))
        return;
    CHECK_STR_EQ(c.keys[0], "hash");
    CHECK_STR_EQ(c.values[0], "256");
    CHECK_STR_EQ(c.keys[1], "Move Overhead");
    CHECK_STR_EQ(c.values[1], "100");
    CHECK_STR_EQ(c.keys[2], "book file");
    CHECK_STR_EQ(c.values[2], "my book#1.bin");
    CHECK_STR_EQ(c.values[3], "/tb/a:/tb/b");
}

TEST(rcfile_bad_lines_warned_with_line_number)
{
    RcCapture c;
    RcResult r = parse_text("hash = 16\n"
                            "this line has no equals sign\n"
                            "= 5\n"
                            "unknown = 3\n"
                            "threads = 2\n", &c);
    CHECK_EQ(r.applied, 2);
    CHECK_EQ(r.warnings, 3);
    if (!CHECK_EQ(c.warn_count, 3))
        return;
    CHECK_MSG(strstr(c.warnings[0], "test.rc:2:") != NULL, "warning was: %s", c.warnings[0]);
    CHECK_MSG(strstr(c.warnings[1], "test.rc:3:") != NULL, "warning was: %s", c.warnings[1]);
    CHECK_MSG(strstr(c.warnings[2], "test.rc:4:") != NULL, "warning was: %s", c.warnings[2]);
    CHECK_MSG(strstr(c.warnings[2], "unknown option") != NULL, "warning was: %s", c.warnings[2]);
    CHECK_STR_EQ(c.keys[1], "threads");
}

TEST(rcfile_key_matching_is_loose)
{
    CHECK(rc_key_equal("move_overhead", "Move Overhead"));
    CHECK(rc_key_equal("SyzygyPath", "syzygy-path"));
    CHECK(!rc_key_equal("hash", "hashx"));
    CHECK(!rc_key_equal("threads", "thread"));
}

TEST(rcfile_locate_explicit_path)
{
    char out[512];
    CHECK(!rcfile_locate("/nonexistent/dir/engine.rc", out, sizeof out));
    char path[256] = "/tmp/saavedra-rc-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    FILE *f = fdopen(fd, "w");
    fputs("hash = 1\n", f);
    fclose(f);
    CHECK(rcfile_locate(path, out, sizeof out));
    CHECK_STR_EQ(out, path);
    remove(path);
}

static RcResult parse_bytes(const char *bytes, size_t size, RcCapture *c)
{
    memset(c, 0, sizeof *c);
    RcSink sink = {capture_apply, c, capture_warn, c};
    FILE *f = fmemopen((void *)bytes, size, "r");
    RcResult r = rcfile_read_stream(f, "test.rc", &sink);
    fclose(f);
    return r;
}

TEST(rcfile_nul_and_overlong_lines_skipped_whole)
{
    /* A NUL hid the length of a line from strlen: the tail past fgets' buffer was read
     * as a line of its own (here a setting). Both lines are now skipped whole. */
    static char text[4096];
    size_t n = 0;
    text[n++] = '#';
    text[n++] = '\0';
    memset(text + n, 'a', 1100), n += 1100;
    n += (size_t)sprintf(text + n, "hash = 7\n");
    memset(text + n, 'b', 1500), n += 1500;
    n += (size_t)sprintf(text + n, "threads = 3\ncontempt = 4\n");
    memcpy(text + n, "hash = 5\0junk\n", 14), n += 14; /* not a value of 5 */
    RcCapture c;
    RcResult r = parse_bytes(text, n, &c);
    CHECK_EQ(r.applied, 1);
    CHECK_EQ(r.warnings, 3);
    CHECK(!r.read_error);
    if (!CHECK_EQ(c.count, 1) || !CHECK_EQ(c.warn_count, 3))
        return;
    CHECK_STR_EQ(c.keys[0], "contempt");
    CHECK_MSG(strstr(c.warnings[0], "test.rc:1:") != NULL, "warning was: %s", c.warnings[0]);
    CHECK_MSG(strstr(c.warnings[1], "test.rc:2:") && strstr(c.warnings[1], "longer"), "warning was: %s", c.warnings[1]);
    CHECK_MSG(strstr(c.warnings[2], "test.rc:4:") && strstr(c.warnings[2], "NUL"), "warning was: %s", c.warnings[2]);
}

TEST(rcfile_directory_is_an_error_not_an_empty_file)
{
    RcCapture c;
    memset(&c, 0, sizeof c);
    RcSink sink = {capture_apply, &c, capture_warn, &c};
    RcResult r;
    CHECK(!rcfile_read("/tmp", &sink, &r));
    CHECK(r.read_error);
    CHECK_MSG(c.warn_count == 1 && strstr(c.warnings[0], "/tmp"), "warnings: %d %s", c.warn_count, c.warnings[0]);
    char out[512];
    CHECK(!rcfile_locate("/tmp", out, sizeof out));
    /* /dev/null is the usual "no settings" and still reads as empty. */
    CHECK(rcfile_locate("/dev/null", out, sizeof out));
    CHECK(rcfile_read("/dev/null", &sink, &r) && r.applied == 0 && r.warnings == 0);
}

TEST(rcfile_warnings_escape_binary_bytes)
{
    /* A binary file given as engine.rc: its bytes used to be echoed raw in warnings. */
    static const char text[] = "\x1b[2J\x01\xff garbage\nbook file = caf\xc3\xa9.bin\nbell\x07\x7f\xc3 line\n";
    RcCapture c;
    RcResult r = parse_bytes(text, sizeof text - 1, &c);
    CHECK_EQ(r.warnings, 2);
    if (!CHECK_EQ(c.warn_count, 2))
        return;
    for (int i = 0; i < 2; i++)
        for (const unsigned char *p = (const unsigned char *)c.warnings[i]; *p; p++)
            CHECK_MSG(*p >= 0x20 && *p != 0x7f && *p != 0xff, "raw byte 0x%02x in: %s", *p, c.warnings[i]);
    CHECK_MSG(strstr(c.warnings[0], "\\x1b[2J\\x01\\xff garbage"), "warning was: %s", c.warnings[0]);
    CHECK_MSG(strstr(c.warnings[1], "bell\\x07\\x7f\\xc3 line"), "warning was: %s", c.warnings[1]);
    CHECK_STR_EQ(c.values[0], "caf\xc3\xa9.bin"); /* values themselves are untouched */
}

/* `-rc /dev/zero` hung start-up: an endless line of NULs. Only regular files of at most
 * 1 MB are read. */
TEST(rcfile_device_and_huge_file_refused)
{
    RcCapture c;
    memset(&c, 0, sizeof c);
    RcSink sink = {capture_apply, &c, capture_warn, &c};
    RcResult r;
    char out[512];
    CHECK(!rcfile_locate("/dev/zero", out, sizeof out));
    CHECK(!rcfile_read("/dev/zero", &sink, &r));
    CHECK(r.read_error);
    CHECK_MSG(c.warn_count == 1 && strstr(c.warnings[0], "regular"), "warnings: %d %s", c.warn_count, c.warnings[0]);

    char path[256] = "/tmp/saavedra-rc-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < 60000; i++) /* 1.2 MB of settings */
        fputs("hash = 1 # padding\n", f);
    fclose(f);
    memset(&c, 0, sizeof c);
    CHECK(!rcfile_read(path, &sink, &r));
    CHECK_EQ(c.count, 0);
    CHECK_MSG(c.warn_count == 1 && strstr(c.warnings[0], "1 MB"), "warnings: %d %s", c.warn_count, c.warnings[0]);
    /* An empty regular file is fine. */
    f = fopen(path, "w");
    fclose(f);
    memset(&c, 0, sizeof c);
    CHECK(rcfile_read(path, &sink, &r));
    CHECK_EQ(c.warn_count, 0);
    remove(path);
}

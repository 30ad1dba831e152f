/* The output writer (util/writer.h): every line reaches the stream flushed and whole,
 * and the protocol log time-stamped, in the order of both directions. Runs on Windows
 * too (no fork, no FIFO). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/writer.h"
#include "test.h"

/* A fresh temporary file's name in path (removed by the caller). */
static bool temp_path(char *path, size_t size)
{
    snprintf(path, size, "/tmp/saavedra-writer-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

/* Whether line is "HH:MM:SS.mmm <ms> tag text", the log's form. */
static bool log_line_is(const char *line, const char *tag, const char *text)
{
    int h, m, s, ms, used = 0;
    long long since;
    if (sscanf(line, "%2d:%2d:%2d.%3d %lld %n", &h, &m, &s, &ms, &since, &used) != 5 || used == 0)
        return false;
    size_t t = strlen(tag);
    return !strncmp(line + used, tag, t) && line[used + t] == ' '
           && !strncmp(line + used + t + 1, text, strlen(text)) && line[used + t + 1 + strlen(text)] == '\n';
}

/* The log's line holding text after tag, or NULL. */
static const char *find_logged(const char *log, const char *tag, const char *text)
{
    for (const char *p = log; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        if (log_line_is(p, tag, text))
            return p;
    return NULL;
}

TEST(writer_lines_reach_stream_and_log_in_order)
{
    char out_path[512], log_path[512], in_path[512], err[300];
    if (!CHECK(temp_path(out_path, sizeof out_path) && temp_path(log_path, sizeof log_path)
               && temp_path(in_path, sizeof in_path)))
        return;
    FILE *in = fopen(in_path, "wb");
    fputs("uci\r\nisready\nlast", in);
    fclose(in);
    IoLog *log = iolog_open(log_path, err, sizeof err);
    FILE *out = fopen(out_path, "wb");
    in = fopen(in_path, "rb");
    if (!CHECK_MSG(log && out && in, "%s", err))
        return;
    Writer w;
    writer_init(&w, out, log);
    char line[100];
    CHECK(iolog_read_line(log, in, line, sizeof line) == LINE_OK && !strcmp(line, "uci\r"));
    writer_send(&w, "uciok");
    CHECK(iolog_read_line(log, in, line, sizeof line) == LINE_OK);
    writer_printf(&w, "a%d: %s\n", 1, "one");
    writer_printf(&w, "piece");
    writer_printf(&w, " by piece\nheld");
    writer_send(&w, "whole\nsplit");
    writer_send(&w, "");
    CHECK(iolog_read_line(log, in, line, sizeof line) == LINE_OK && !strcmp(line, "last"));
    writer_destroy(&w); /* the held line goes out */
    fclose(out);
    fclose(in);
    iolog_close(log);

    char text[4096], logged[8192];
    test_read_file(out_path, text, sizeof text);
    CHECK_STR_EQ(text, "uciok\na1: one\npiece by piece\nwhole\nsplit\n\nheld\n");
    test_read_file(log_path, logged, sizeof logged);
    const char *order[][2] = { { "--", "log opened" }, { "<", "uci" },   { ">", "uciok" },
                               { "<", "isready" },     { ">", "a1: one" }, { ">", "piece by piece" },
                               { ">", "whole" },       { ">", "split" }, { ">", "" },
                               { "<", "last" },        { ">", "held" },  { "--", "log closed" } };
    const char *at = logged;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const char *p = find_logged(at, order[i][0], order[i][1]);
        if (!CHECK_MSG(p != NULL, "'%s %s' missing or out of order in:\n%s", order[i][0], order[i][1], logged))
            break;
        at = p + 1;
    }
    remove(out_path);
    remove(log_path);
    remove(in_path);
}

/* Each line is on its way when the call returns: nothing for an exit or a crash to lose. */
TEST(writer_flushes_every_line)
{
    char path[512], text[256];
    if (!CHECK(temp_path(path, sizeof path)))
        return;
    FILE *out = fopen(path, "wb");
    if (!CHECK(out && setvbuf(out, NULL, _IOFBF, 1 << 16) == 0))
        return;
    Writer w;
    writer_init(&w, out, NULL);
    writer_send(&w, "bestmove e2e4");
    test_read_file(path, text, sizeof text);
    CHECK_STR_EQ(text, "bestmove e2e4\n");
    writer_printf(&w, "Nodes searched: %d\n", 20);
    test_read_file(path, text, sizeof text);
    CHECK_STR_EQ(text, "bestmove e2e4\nNodes searched: 20\n");
    writer_destroy(&w);
    fclose(out);
    remove(path);
}

/* A stream that refuses the write (the GUI gone) is reported; the line is still logged,
 * and a line longer than any buffer goes out whole. */
TEST(writer_reports_a_failed_stream_and_long_lines)
{
    char path[512], log_path[512], err[300];
    if (!CHECK(temp_path(path, sizeof path) && temp_path(log_path, sizeof log_path)))
        return;
    IoLog *log = iolog_open(log_path, err, sizeof err);
    FILE *closed = fopen(path, "rb"); /* read only: every write fails */
    if (!CHECK_MSG(log && closed, "%s", err))
        return;
    Writer w;
    writer_init(&w, closed, log);
    CHECK(!writer_failed(&w));
    writer_send(&w, "readyok");
    CHECK(writer_failed(&w));
    writer_destroy(&w);
    fclose(closed);

    static char longer[20001], text[30000];
    memset(longer, 'x', sizeof longer - 1);
    FILE *out = fopen(path, "wb");
    if (!CHECK(out))
        return;
    writer_init(&w, out, log);
    writer_printf(&w, "info string %s\n", longer);
    CHECK(!writer_failed(&w));
    writer_destroy(&w);
    fclose(out);
    iolog_close(log);
    CHECK_EQ(test_read_file(path, text, sizeof text), strlen("info string ") + sizeof longer);
    static char logged[30000];
    test_read_file(log_path, logged, sizeof logged);
    CHECK_MSG(find_logged(logged, ">", "readyok") != NULL, "%s", logged);
    /* The log keeps the first 8192 characters of a longer line. */
    const char *cut = strstr(logged, "> info string x");
    CHECK(cut && strcspn(cut + 2, "\n") == 8192);
    remove(path);
    remove(log_path);
}

#define THREAD_LINES 3000

typedef struct {
    Writer *w;
    int id;
} Talker;

static void *talk(void *arg)
{
    Talker *t = arg;
    char line[64];
    for (int i = 0; i < THREAD_LINES; i++) {
        if (t->id == 0) { /* piecewise, like a console command's table */
            writer_printf(t->w, "table %d", i);
            writer_printf(t->w, " row\n");
        } else {
            snprintf(line, sizeof line, "info depth %d thread %d", i, t->id);
            writer_send(t->w, line);
        }
    }
    return NULL;
}

/* Whole lines from several threads, one of them printing piecewise: no line is mixed. */
TEST(writer_keeps_lines_whole_among_threads)
{
    char path[512];
    if (!CHECK(temp_path(path, sizeof path)))
        return;
    FILE *out = fopen(path, "wb");
    if (!CHECK(out))
        return;
    Writer w;
    writer_init(&w, out, NULL);
    pthread_t th[3];
    Talker t[3];
    for (int i = 0; i < 3; i++) {
        t[i] = (Talker){ &w, i };
        CHECK(pthread_create(&th[i], NULL, talk, &t[i]) == 0);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    writer_destroy(&w);
    fclose(out);
    FILE *f = fopen(path, "rb");
    if (!CHECK(f))
        return;
    char line[128];
    int counts[3] = { 0, 0, 0 }, bad = 0;
    while (fgets(line, sizeof line, f)) {
        int n, id;
        char end;
        if (sscanf(line, "table %d row%c", &n, &end) == 2 && end == '\n')
            counts[0]++;
        else if (sscanf(line, "info depth %d thread %d%c", &n, &id, &end) == 3 && end == '\n' && id >= 1 && id <= 2)
            counts[id]++;
        else if (bad++ == 0)
            CHECK_MSG(false, "mixed line: %s", line);
    }
    fclose(f);
    CHECK(counts[0] == THREAD_LINES && counts[1] == THREAD_LINES && counts[2] == THREAD_LINES && bad == 0);
    remove(path);
}

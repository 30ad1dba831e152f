/* Protocol log: lines read and written through wrapped streams land in the log, in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/iolog.h"
#include "test.h"

static size_t read_all(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

TEST(iolog_logs_both_directions)
{
    char path[] = "/tmp/saavedra-iolog-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    close(fd);
    char err[200];
    IoLog *log = iolog_open(path, err, sizeof err);
    if (!CHECK_MSG(log != NULL, "%s", err))
        return;

    int in_pipe[2], out_pipe[2];
    if (!CHECK(pipe(in_pipe) == 0 && pipe(out_pipe) == 0))
        return;
    FILE *in_raw = fdopen(in_pipe[0], "r"), *out_raw = fdopen(out_pipe[1], "w");
    FILE *in = iolog_wrap_input(log, in_raw), *out = iolog_wrap_output(log, out_raw);
    if (!CHECK(in && out))
        return;

    const char *cmds = "xboard\r\nprotover 2\n";
    CHECK(write(in_pipe[1], cmds, strlen(cmds)) == (ssize_t)strlen(cmds));
    close(in_pipe[1]);
    char line[100];
    CHECK(fgets(line, sizeof line, in) && !strcmp(line, "xboard\r\n"));
    fprintf(out, "feature done=1\n");
    CHECK(fgets(line, sizeof line, in) && !strcmp(line, "protover 2\n"));
    /* Line buffering: the line is on the pipe without an explicit flush. */
    char got[100] = "";
    ssize_t n = read(out_pipe[0], got, sizeof got - 1);
    CHECK(n == 15 && !memcmp(got, "feature done=1\n", 15));

    fclose(in);
    fclose(out);
    fclose(in_raw);
    fclose(out_raw);
    close(out_pipe[0]);
    iolog_close(log);

    char text[4096];
    read_all(path, text, sizeof text);
    remove(path);
    char *a = strstr(text, " < xboard\n");
    char *b = strstr(text, " > feature done=1\n");
    CHECK_MSG(a && b && a < b, "log was:\n%s", text);
    CHECK_MSG(strstr(text, " < protover 2\n") != NULL, "log was:\n%s", text);
    CHECK(strstr(text, "-- log opened") != NULL);
}

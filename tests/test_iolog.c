/* Protocol log: lines read and written through wrapped streams land in the log, in order. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Runs fn in a child with a time limit; true when it returned 0 in time. */
static bool in_child(int (*fn)(const char *), const char *arg, int seconds)
{
    pid_t pid = fork();
    if (pid == 0) {
        alarm((unsigned)seconds);
        _exit(fn(arg));
    }
    int status;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int open_is_refused(const char *path)
{
    char err[300];
    IoLog *log = iolog_open(path, err, sizeof err);
    if (log) {
        iolog_close(log);
        return 1;
    }
    return strstr(err, path) ? 0 : 2;
}

TEST(iolog_refuses_fifo_device_and_folder_without_blocking)
{
    char dir[] = "/tmp/saavedra-iolog-XXXXXX";
    if (!CHECK(mkdtemp(dir)))
        return;
    char fifo[200];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0644) == 0);
    CHECK_MSG(in_child(open_is_refused, fifo, 10), "a FIFO was taken or blocked the open");
    CHECK_MSG(in_child(open_is_refused, "/dev/full", 10), "/dev/full was taken as a log");
    CHECK_MSG(in_child(open_is_refused, dir, 10), "a folder was taken as a log");
    unlink(fifo);
    rmdir(dir);
}

/* A log that cannot be written (here: over the file-size limit, as a full disk would
 * fail) warns once on stderr and stops; the streams it wraps go on working. */
static int write_error_warns_once(const char *path)
{
    char errpath[300];
    snprintf(errpath, sizeof errpath, "%s.stderr", path);
    FILE *e = freopen(errpath, "w", stderr);
    if (!e)
        return 3;
    setvbuf(stderr, NULL, _IONBF, 0);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = { 2000, 2000 };
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return 4;
    char err[300];
    IoLog *log = iolog_open(path, err, sizeof err);
    if (!log)
        return 5;
    FILE *sink = fopen("/dev/null", "w");
    FILE *out = iolog_wrap_output(log, sink);
    for (int i = 0; i < 200; i++)
        if (fprintf(out, "info depth %d score cp 10 pv e2e4\n", i) < 0 || fflush(out) != 0)
            return 6;
    fclose(out);
    iolog_close(log);
    return 0;
}

TEST(iolog_write_error_warns_once_and_size_is_bounded)
{
    char path[] = "/tmp/saavedra-iolog-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    close(fd);
    CHECK(in_child(write_error_warns_once, path, 20));
    char errpath[300], text[4096];
    snprintf(errpath, sizeof errpath, "%s.stderr", path);
    read_all(errpath, text, sizeof text);
    int warnings = 0;
    for (const char *p = text; (p = strstr(p, "cannot write")); p++)
        warnings++;
    CHECK_MSG(warnings == 1, "%d warnings: %s", warnings, text);
    unlink(errpath);
    /* The size limit: a note, then nothing more. */
    char err[200];
    IoLog *log = iolog_open(path, err, sizeof err);
    if (!CHECK_MSG(log != NULL, "%s", err))
        return;
    iolog_set_limit(log, 3000);
    for (int i = 0; i < 500; i++)
        iolog_note(log, "a line of the protocol, over and over");
    iolog_close(log);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size <= 3100);
    static char all[8192];
    read_all(path, all, sizeof all);
    CHECK(strstr(all, "size limit") != NULL);
    unlink(path);
}

/* Protocol log: what it refuses to open, and how it stops on a write error or at its size
 * limit. The lines it gets from both directions: tests/test_writer.c. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/iolog.h"
#include "util/writer.h"
#include "test.h"

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
 * fail) warns once on stderr and stops; the output it logs goes on. */
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
    if (!sink)
        return 6;
    Writer out;
    writer_init(&out, sink, log);
    for (int i = 0; i < 200; i++) {
        writer_printf(&out, "info depth %d score cp 10 pv e2e4\n", i);
        if (writer_failed(&out))
            return 7;
    }
    writer_destroy(&out);
    fclose(sink);
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
    test_read_file(errpath, text, sizeof text);
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
    test_read_file(path, all, sizeof all);
    CHECK(strstr(all, "size limit") != NULL);
    unlink(path);
}

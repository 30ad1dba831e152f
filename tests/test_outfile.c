/* Writing a file safely (util/outfile.h) and its users: the target gets the whole data
 * or stays as it was; a symbolic link stays a link and its target is written, with its
 * mode; temporary files of dead processes are removed, a live one's kept. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/outfile.h"
#include "test.h"

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[600];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

static int count_named(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, part))
            n++;
    if (d)
        closedir(d);
    return n;
}

static bool read_text(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return true;
}

/* A pid that certainly names no process now: a child that has exited and was reaped. */
static pid_t dead_pid(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    return pid;
}

TEST(outfile_writes_through_links_keeping_mode)
{
    char dir[] = "/tmp/saavedra-outfile-XXXXXX";
    if (!CHECK(mkdtemp(dir)))
        return;
    char target[300], link_path[300], text[100], err[300];
    snprintf(target, sizeof target, "%s/real.txt", dir);
    snprintf(link_path, sizeof link_path, "%s/link.txt", dir);
    CHECK(outfile_write(target, "one", 3, err, sizeof err));
    CHECK(chmod(target, 0640) == 0);
    CHECK(symlink("real.txt", link_path) == 0);
    CHECK_MSG(outfile_write(link_path, "two", 3, err, sizeof err), "%s", err);
    struct stat st;
    CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(read_text(target, text, sizeof text));
    CHECK_STR_EQ(text, "two");
    CHECK(stat(target, &st) == 0);
    CHECK_EQ(st.st_mode & 07777, 0640);
    CHECK_EQ(count_named(dir, ".tmp"), 0);
    /* A directory under the name is refused and left alone. */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/adir", dir);
    CHECK(mkdir(sub, 0755) == 0);
    CHECK(!outfile_write(sub, "x", 1, err, sizeof err));
    CHECK(rmdir(sub) == 0);
    remove_tree(dir);
}

TEST(outfile_stale_temporaries_of_dead_processes_removed)
{
    char dir[] = "/tmp/saavedra-outfile-XXXXXX";
    if (!CHECK(mkdtemp(dir)))
        return;
    char path[300], dead[400], live[400], other[400], err[300];
    snprintf(path, sizeof path, "%s/learn.bin", dir);
    CHECK(outfile_write(path, "data", 4, err, sizeof err));
    snprintf(dead, sizeof dead, "%s.tmp-%ld-AbC123", path, (long)dead_pid());
    snprintf(live, sizeof live, "%s.tmp-%ld-AbC123", path, (long)getpid());
    snprintf(other, sizeof other, "%s/notes.txt.tmp-%ld-AbC123", dir, (long)dead_pid());
    CHECK(outfile_write(dead, "x", 1, err, sizeof err));
    CHECK(outfile_write(live, "x", 1, err, sizeof err));
    CHECK(outfile_write(other, "x", 1, err, sizeof err));
    CHECK_EQ(outfile_remove_stale(path), 1);
    CHECK(access(dead, F_OK) != 0);
    CHECK(access(live, F_OK) == 0);
    CHECK(access(other, F_OK) == 0); /* another file's: not ours to judge */
    remove_tree(dir);
}

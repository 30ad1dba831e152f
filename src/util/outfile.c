/* Temporary-name-then-rename file output: see outfile.h. */
#include "util/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"

static bool target_ok(const char *path, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return true; /* does not exist yet */
    if (S_ISREG(st.st_mode))
        return true;
    snprintf(err, err_size, "%s exists and is not a regular file", path);
    return false;
}

bool outfile_resolve(const char *path, char *out, size_t out_size)
{
    char buf[PATH_MAX];
    const char *use = path;
    /* realpath fails for a file not yet made: the path is then used as given. */
    if (realpath(path, buf))
        use = buf;
    return (size_t)snprintf(out, out_size, "%s", use) < out_size;
}

/* Splits path into its folder ("." when none) and its last component. */
static void split_path(const char *path, char *dir, size_t dir_size, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dir_size, ".");
        *base = path;
    } else if (slash == path) {
        snprintf(dir, dir_size, "/");
        *base = slash + 1;
    } else {
        snprintf(dir, dir_size, "%.*s", (int)(slash - path), path);
        *base = slash + 1;
    }
}

bool outfile_sync_dir(const char *path)
{
    char dir[4096];
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    return pf_sync_dir(dir);
}

FILE *outfile_open(OutFile *of, const char *path, char *err, size_t err_size)
{
    of->f = NULL;
    of->tmp[0] = '\0';
    if (!outfile_resolve(path, of->path, sizeof of->path)) {
        snprintf(err, err_size, "file name too long");
        return NULL;
    }
    if (!target_ok(of->path, err, err_size))
        return NULL;
    snprintf(of->tmp, sizeof of->tmp, "%s.tmp-%ld-XXXXXX", of->path, (long)getpid());
    int fd = mkstemp(of->tmp); /* O_EXCL, never through a link left at that name */
    if (fd < 0) {
        snprintf(err, err_size, "cannot create a file next to %s: %s", of->path, strerror(errno));
        of->tmp[0] = '\0';
        return NULL;
    }
    struct stat st;
    if (stat(of->path, &st) == 0) {
        /* Keep a shared file's owner and mode (a non-root owner cannot give it away:
         * the group still can be kept, and the mode always). */
        if (fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, (uid_t)-1, st.st_gid) != 0) {
            /* owned by whoever writes it */
        }
        fchmod(fd, st.st_mode & 07777);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0644 & ~mask);
    }
    of->f = fdopen(fd, "w");
    if (!of->f) {
        snprintf(err, err_size, "cannot write %s: %s", of->tmp, strerror(errno));
        close(fd);
        remove(of->tmp);
        of->tmp[0] = '\0';
    }
    return of->f;
}

bool outfile_commit(OutFile *of, char *err, size_t err_size)
{
    if (err_size)
        err[0] = '\0';
    if (!of->f)
        return false;
    bool ok = !ferror(of->f);
    ok &= fflush(of->f) == 0;
    ok &= fsync(fileno(of->f)) == 0 || errno == EINVAL;
    int saved = errno;
    ok &= fclose(of->f) == 0;
    if (!ok && errno)
        saved = errno;
    of->f = NULL;
    if (!ok) {
        snprintf(err, err_size, "cannot write %s: %s", of->path, strerror(saved));
        remove(of->tmp);
        return false;
    }
    if (!target_ok(of->path, err, err_size) || rename(of->tmp, of->path) != 0) {
        if (!err[0])
            snprintf(err, err_size, "cannot rename to %s: %s", of->path, strerror(errno));
        remove(of->tmp);
        return false;
    }
    if (!outfile_sync_dir(of->path)) {
        snprintf(err, err_size, "cannot sync the folder of %s: %s", of->path, strerror(errno));
        return false;
    }
    return true;
}

void outfile_abort(OutFile *of)
{
    if (of->f) {
        fclose(of->f);
        of->f = NULL;
        remove(of->tmp);
    }
}

bool outfile_write(const char *path, const void *data, size_t size, char *err, size_t err_size)
{
    OutFile of;
    FILE *f = outfile_open(&of, path, err, err_size);
    if (!f)
        return false;
    if (size && fwrite(data, 1, size, f) != size) {
        snprintf(err, err_size, "cannot write %s: %s", of.path, strerror(errno));
        outfile_abort(&of);
        return false;
    }
    return outfile_commit(&of, err, err_size);
}

int outfile_remove_stale(const char *path)
{
    char target[4096], dir[4096];
    const char *base;
    if (!outfile_resolve(path, target, sizeof target))
        return 0;
    split_path(target, dir, sizeof dir, &base);
    size_t base_len = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        /* BASE.tmp-PID-XXXXXX, six characters from mkstemp */
        const char *name = e->d_name;
        if (strncmp(name, base, base_len) != 0 || strncmp(name + base_len, ".tmp-", 5) != 0)
            continue;
        char *end;
        long pid = strtol(name + base_len + 5, &end, 10);
        if (pid <= 0 || end == name + base_len + 5 || *end != '-' || strlen(end + 1) != 6)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive (or not ours to ask): its writer may still rename it */
        char full[8300];
        snprintf(full, sizeof full, "%s/%s", dir, name);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISREG(st.st_mode) && unlink(full) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}

/* Temporary-name-then-rename file output. */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

FILE *outfile_open(OutFile *of, const char *path, char *err, size_t err_size)
{
    of->f = NULL;
    if (strlen(path) >= sizeof of->path) {
        snprintf(err, err_size, "file name too long");
        return NULL;
    }
    if (!target_ok(path, err, err_size))
        return NULL;
    strcpy(of->path, path);
    snprintf(of->tmp, sizeof of->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(of->tmp);
    if (fd < 0) {
        snprintf(err, err_size, "cannot create a file next to %s: %s", path, strerror(errno));
        return NULL;
    }
    fchmod(fd, 0644);
    of->f = fdopen(fd, "w");
    if (!of->f) {
        snprintf(err, err_size, "cannot write %s: %s", of->tmp, strerror(errno));
        close(fd);
        remove(of->tmp);
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
    ok &= fclose(of->f) == 0;
    of->f = NULL;
    if (!ok) {
        snprintf(err, err_size, "cannot write %s: %s", of->path, strerror(errno));
        remove(of->tmp);
        return false;
    }
    if (!target_ok(of->path, err, err_size) || rename(of->tmp, of->path) != 0) {
        if (!err[0])
            snprintf(err, err_size, "cannot rename to %s: %s", of->path, strerror(errno));
        remove(of->tmp);
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

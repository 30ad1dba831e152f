/* POSIX side of util/platform.h (Linux; the Makefile leaves it out of make windows). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"

/* A fresh anonymous mapping, aligned as asked. The kernel hands its pages out zeroed as
 * they are first touched, so a new table needs no clearing pass. */
void *pf_large_alloc(size_t bytes, size_t align)
{
    char *raw =
        mmap(NULL, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *mem = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    if (mem > raw)
        munmap(raw, (size_t)(mem - raw));
    size_t tail = (size_t)(raw + bytes + align - (mem + bytes));
    if (tail)
        munmap(mem + bytes, tail);
#ifdef MADV_HUGEPAGE
    if (align >= (2u << 20))
        madvise(mem, bytes, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    return mem;
}

void pf_large_free(void *mem, size_t bytes)
{
    if (mem)
        munmap(mem, bytes);
}

/* MemAvailable of /proc/meminfo. */
size_t pf_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return SIZE_MAX;
    char line[160];
    unsigned long long kb = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    fclose(f);
    return found && kb < SIZE_MAX / 1024 ? (size_t)kb * 1024 : SIZE_MAX;
}

void *pf_aligned_alloc(size_t align, size_t bytes)
{
    return aligned_alloc(align, (bytes + align - 1) / align * align);
}

void pf_aligned_free(void *mem)
{
    free(mem);
}

bool pf_executable_dir(char *out, size_t out_size)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    *slash = '\0';
    if ((size_t)(slash - buf) + 1 > out_size)
        return false;
    strcpy(out, buf[0] ? buf : "/");
    return true;
}

/* $XDG_name if set and absolute, else $HOME/home_rest. */
static bool xdg_dir(const char *xdg_name, const char *home_rest, char *out, size_t out_size)
{
    const char *xdg = getenv(xdg_name), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(out, out_size, "%s", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, out_size, "%s/%s", home, home_rest);
    else
        return false;
    return n > 0 && (size_t)n < out_size;
}

bool pf_user_config_dir(int choice, char *out, size_t out_size)
{
    const char *dir = getenv(choice == 0 ? "XDG_CONFIG_HOME" : "HOME");
    if (choice > 1 || !dir || !*dir)
        return false;
    int n = snprintf(out, out_size, "%s%s", dir, choice == 0 ? "" : "/.config");
    return n > 0 && (size_t)n < out_size;
}

bool pf_user_data_dir(char *out, size_t out_size)
{
    return xdg_dir("XDG_DATA_HOME", ".local/share", out, out_size);
}

bool pf_path_is_absolute(const char *path)
{
    return path[0] == '/';
}

void pf_temp_dir(char *out, size_t out_size)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, out_size, "%s", tmp && *tmp ? tmp : "/tmp");
}

int pf_mkdir(const char *path)
{
    return mkdir(path, 0755);
}

bool pf_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    /* Some file systems cannot sync a folder (EINVAL): nothing more can be done there. */
    bool ok = fsync(fd) == 0 || errno == EINVAL;
    close(fd);
    return ok;
}

bool pf_process_alive(long pid)
{
    return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

/* Bytes already buffered by stdio (glibc keeps them where poll cannot see them), or
 * readable (or ended) on the descriptor. */
bool pf_input_ready(FILE *in)
{
#ifdef __GLIBC__
    if (in->_IO_read_ptr < in->_IO_read_end)
        return true;
#endif
    struct pollfd p = {.fd = fileno(in), .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

void pf_ignore_broken_pipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}

PfSignalHandler pf_on_interrupt(PfSignalHandler handler)
{
    struct sigaction act = {.sa_handler = handler}, old;
    sigemptyset(&act.sa_mask);
    sigaction(SIGINT, &act, &old);
    return old.sa_handler;
}

void pf_end_reader(pthread_t reader, bool blocked)
{
    if (blocked)
        pthread_cancel(reader);
    pthread_join(reader, NULL);
}

long pf_min_signal_stack(void)
{
#ifdef _SC_MINSIGSTKSZ
    return sysconf(_SC_MINSIGSTKSZ);
#else
    return MINSIGSTKSZ;
#endif
}

/* The shell's form of s, single-quoted; false when it does not fit. */
static bool shell_quote(const char *s, char *out, size_t size)
{
    size_t n = 0;
    if (size < 3)
        return false;
    out[n++] = '\'';
    for (; *s; s++) {
        if (n + 6 > size)
            return false;
        if (*s == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else
            out[n++] = *s;
    }
    out[n++] = '\'';
    out[n] = '\0';
    return true;
}

int pf_child_open(PfChild *child, const char *program, const char *error_path)
{
    char quoted[8200], command[8400];
    if (!shell_quote(error_path, quoted, sizeof quoted)
        || snprintf(command, sizeof command, "exec %s 2>%s", program, quoted)
               >= (int)sizeof command) {
        errno = ENAMETOOLONG;
        return -1;
    }
    child->old_pipe = signal(SIGPIPE, SIG_IGN);
    child->to = popen(command, "w");
    if (!child->to) {
        int e = errno;
        signal(SIGPIPE, child->old_pipe);
        errno = e;
        return -1;
    }
    return 0;
}

int pf_child_close(PfChild *child)
{
    int status = pclose(child->to);
    child->to = NULL;
    signal(SIGPIPE, child->old_pipe);
    if (status == -1)
        return -1;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    /* The shell's code for a command it did not find. */
    return WEXITSTATUS(status) == 127 ? PF_CHILD_NOT_FOUND : WEXITSTATUS(status);
}

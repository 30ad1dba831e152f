/* What POSIX systems and Windows do differently, in one place: the only header of the
 * engine that asks which system it is built for. Two kinds of interface:
 *   - pf_* functions for what differs in substance (memory for the hash table, files
 *     beside the executable, the user's folders, input polling, a blocked reader);
 *     platform_posix.c and platform_windows.c implement them, the Makefile links one;
 *   - under Windows, the POSIX calls the engine uses on plain files (flock, pread,
 *     pwrite, fsync, link, realpath, fmemopen, poll on one descriptor, ...) declared
 *     here under their POSIX names and implemented in platform_windows.c, so callers
 *     keep one code path. Calls with no Windows meaning (fork, waitpid) fail there with
 *     ENOSYS, which their callers already handle as "could not run".
 * Include it after the system headers of the file. */
#ifndef SAAVEDRA_PLATFORM_H
#define SAAVEDRA_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef _WIN32
#define PF_WINDOWS 1
/* Separates the folders of a path list (SyzygyPath): ';' as C:\TB needs ':' itself. */
#define PF_PATH_LIST_SEP ';'
#define PF_PATH_LIST_SEPS ";"
/* Whether a child process can be forked (tbcheck.h's probe check in a child). */
#define PF_CAN_FORK 0
#define PF_SYSTEM_NAME "windows"
#define PF_NULL_DEVICE "NUL"
/* Top-level assembler into the read-only data section and back: PE/COFF names it .rdata
 * and has no .previous; the file's top-level asm comes before any function, in .text. */
#define PF_ASM_RODATA_BEGIN ".section .rdata,\"dr\""
#define PF_ASM_RODATA_END ".text"
#else
#define PF_WINDOWS 0
#define PF_PATH_LIST_SEP ':'
#define PF_PATH_LIST_SEPS ":"
#define PF_CAN_FORK 1
#define PF_SYSTEM_NAME "linux"
#define PF_NULL_DEVICE "/dev/null"
#define PF_ASM_RODATA_BEGIN ".section .rodata"
#define PF_ASM_RODATA_END ".previous"
#endif

/* ---- memory ---- */

/* Zero-filled memory of bytes bytes aligned to align (a power of two up to 2 MiB; large
 * blocks get transparent huge pages where the system has them); NULL when refused. */
void *pf_large_alloc(size_t bytes, size_t align);
void pf_large_free(void *mem, size_t bytes);
/* Memory the system can give without swapping, in bytes; SIZE_MAX when unknown. */
size_t pf_memory_available(void);
/* aligned_alloc whose block pf_aligned_free releases (Windows has no aligned free()). */
void *pf_aligned_alloc(size_t align, size_t bytes);
void pf_aligned_free(void *mem);

/* ---- files and folders ---- */

/* The folder of the running executable, with '/' separators; false when unknown. */
bool pf_executable_dir(char *out, size_t out_size);
/* The user's folders for settings, best first (choice 0: $XDG_CONFIG_HOME, 1: ~/.config;
 * Windows: 0: %APPDATA%), and for data the engine writes ($XDG_DATA_HOME or
 * ~/.local/share; %LOCALAPPDATA%); false when the environment names none. */
bool pf_user_config_dir(int choice, char *out, size_t out_size);
bool pf_user_data_dir(char *out, size_t out_size);
/* An absolute path: /x, and under Windows also C:/x, C:\x and \\server\x. */
bool pf_path_is_absolute(const char *path);
/* The folder for temporary files ($TMPDIR or /tmp; GetTempPath), without a trailing '/'. */
void pf_temp_dir(char *out, size_t out_size);
/* mkdir with mode 0755 where modes exist. */
int pf_mkdir(const char *path);
/* Makes a rename in dir durable (fsync of the folder; Windows: the rename itself is
 * written through, nothing to do). */
bool pf_sync_dir(const char *dir);
/* Whether process pid may still run (a stale temporary file's owner). */
bool pf_process_alive(long pid);

/* ---- input and signals ---- */

/* Whether a read of in would not block: buffered bytes, data or end of input. */
bool pf_input_ready(FILE *in);
/* Ends a thread reading a FILE with line_read (util/textline.h) and joins it; blocked:
 * it may wait for input (POSIX cancels it there; Windows cancels the pending read, and
 * after half a second leaves the thread behind, as the process is about to end). */
void pf_end_reader(pthread_t reader, bool blocked);
/* Writing to a closed pipe gives an error instead of ending the process. */
void pf_ignore_broken_pipe(void);
/* The smallest alternate signal stack (sysconf(_SC_MINSIGSTKSZ) where the C library
 * knows it, glibc 2.34 and later; MINSIGSTKSZ before). */
long pf_min_signal_stack(void);
/* Handler for the interrupt key (Ctrl+C); returns the previous one for pf_restore. */
typedef void (*PfSignalHandler)(int);
PfSignalHandler pf_on_interrupt(PfSignalHandler handler);

/* ---- child programs ---- */

/* A program started with a pipe to its standard input (to), its standard error going
 * to a file; while it runs, writing to it after it ended is an error, not the end of
 * the process (POSIX keeps SIGPIPE's former handler here to restore it). */
typedef struct {
    FILE *to;
    PfSignalHandler old_pipe;
} PfChild;
/* The exit code pf_child_close gives when the program is not in PATH. */
#define PF_CHILD_NOT_FOUND (-2)
/* Starts program (a name looked up in PATH, no arguments, no spaces) with its standard
 * error written to error_path: 0, PF_CHILD_NOT_FOUND when the system can tell at once
 * (Windows), -1 with errno when it cannot start. */
int pf_child_open(PfChild *child, const char *program, const char *error_path);
/* Closes the pipe and waits for the program: its exit code (128 + the signal that ended
 * it), PF_CHILD_NOT_FOUND when it was not in PATH, -1 when it could not be waited for. */
int pf_child_close(PfChild *child);

#if PF_WINDOWS
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define O_CLOEXEC 0
#define O_NONBLOCK 0
#define O_NOCTTY 0
#define O_DIRECTORY 0
#define F_GETFL 3
#define F_SETFL 4
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define SIGKILL 9
#ifndef ENOSYS
#define ENOSYS 40
#endif
#define POLLIN 1
#define WIFEXITED(s) 1
#define WEXITSTATUS(s) (s)
struct pollfd {
    int fd;
    short events, revents;
};

int flock(int fd, int op);
ssize_t pread(int fd, void *buf, size_t n, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset);
int fsync(int fd);
int fcntl(int fd, int cmd, ...);
int link(const char *target, const char *path);
int symlink(const char *target, const char *path);
char *mkdtemp(char *templ);
char *realpath(const char *path, char *resolved);
int lstat(const char *path, struct stat *st);
/* stat and fstat with st_dev and st_ino filled from the volume's serial number and the
 * file's index, as POSIX has them, so that "the same file" can be told. */
int pf_stat(const char *path, struct stat *st);
int pf_fstat(int fd, struct stat *st);
/* open that lets other handles rename or delete the file (FILE_SHARE_DELETE), as POSIX
 * allows: the learning file is replaced while others have it open. Binary mode. */
int pf_open(const char *path, int flags, ...);
#define open(...) pf_open(__VA_ARGS__)
/* mkstemp through pf_open, so the temporary file can be renamed while open. */
int pf_mkstemp(char *templ);
#define mkstemp(templ) pf_mkstemp(templ)
#define stat(path, st) pf_stat(path, st)
#define fstat(fd, st) pf_fstat(fd, st)
FILE *fmemopen(void *buf, size_t size, const char *mode);
char *strcasestr(const char *haystack, const char *needle);
char *strsignal(int sig);
int poll(struct pollfd *fds, unsigned long nfds, int timeout_ms);
int kill(pid_t pid, int sig);
int fork(void);
pid_t waitpid(pid_t pid, int *status, int options);
int pf_rename(const char *from, const char *to);
#define rename(from, to) pf_rename(from, to)
#define mkdir(path, mode) _mkdir(path)
struct sigaction {
    void (*sa_handler)(int);
    unsigned long sa_mask;
    int sa_flags;
};
static inline int sigemptyset(unsigned long *set)
{
    *set = 0;
    return 0;
}
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
#define pipe(fds) _pipe(fds, 4096, _O_BINARY)
typedef int uid_t;
typedef int gid_t;
int fchown(int fd, uid_t uid, gid_t gid);
int fchmod(int fd, int mode);
#define flockfile _lock_file
#define funlockfile _unlock_file
#define getc_unlocked _getc_nolock
#define localtime_r(t, tm) (localtime_s(tm, t) == 0 ? (tm) : NULL)
#define gmtime_r(t, tm) (gmtime_s(tm, t) == 0 ? (tm) : NULL)
#define _SC_NPROCESSORS_ONLN 84
long sysconf(int name);
#define W_OK 2
#define R_OK 4
#else
#include <poll.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/wait.h>
#endif

#endif

/* Windows side of util/platform.h (built only by make windows; the Makefile picks it). */
#define WIN32_LEAN_AND_MEAN
/* declarations up to Windows 10; older systems refuse at run time */
#define _WIN32_WINNT 0x0A000006
#include <windows.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <process.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/platform.h"

/* VirtualAlloc hands out zeroed pages on 64 KiB boundaries, enough for any align asked. */
void *pf_large_alloc(size_t bytes, size_t align)
{
    (void)align;
    return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void pf_large_free(void *mem, size_t bytes)
{
    (void)bytes;
    if (mem)
        VirtualFree(mem, 0, MEM_RELEASE);
}

size_t pf_memory_available(void)
{
    MEMORYSTATUSEX st = {.dwLength = sizeof st};
    if (!GlobalMemoryStatusEx(&st) || st.ullAvailPhys > SIZE_MAX)
        return SIZE_MAX;
    return (size_t)st.ullAvailPhys;
}

void *pf_aligned_alloc(size_t align, size_t bytes)
{
    return _aligned_malloc(bytes, align);
}

void pf_aligned_free(void *mem)
{
    _aligned_free(mem);
}

static void forward_slashes(char *s)
{
    for (; *s; s++)
        if (*s == '\\')
            *s = '/';
}

bool pf_executable_dir(char *out, size_t out_size)
{
    char buf[MAX_PATH * 4];
    DWORD n = GetModuleFileNameA(NULL, buf, sizeof buf);
    if (n == 0 || n >= sizeof buf)
        return false;
    forward_slashes(buf);
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    *slash = '\0';
    if (strlen(buf) + 1 > out_size)
        return false;
    strcpy(out, buf);
    return true;
}

static bool env_dir(const char *name, char *out, size_t out_size)
{
    const char *v = getenv(name);
    if (!v || !*v || strlen(v) + 1 > out_size)
        return false;
    strcpy(out, v);
    forward_slashes(out);
    return true;
}

bool pf_user_config_dir(int choice, char *out, size_t out_size)
{
    return choice == 0 && env_dir("APPDATA", out, out_size);
}

bool pf_user_data_dir(char *out, size_t out_size)
{
    return env_dir("LOCALAPPDATA", out, out_size) || env_dir("APPDATA", out, out_size);
}

bool pf_path_is_absolute(const char *path)
{
    if (path[0] == '/' || path[0] == '\\')
        return true;
    return isalpha((unsigned char)path[0]) && path[1] == ':' && (path[2] == '/' || path[2] == '\\');
}

void pf_temp_dir(char *out, size_t out_size)
{
    char buf[MAX_PATH + 1];
    DWORD n = GetTempPathA(sizeof buf, buf);
    if (n == 0 || n >= sizeof buf)
        strcpy(buf, ".");
    forward_slashes(buf);
    size_t len = strlen(buf);
    if (len > 1 && buf[len - 1] == '/')
        buf[len - 1] = '\0';
    snprintf(out, out_size, "%s", buf);
}

int pf_mkdir(const char *path)
{
    return _mkdir(path);
}

bool pf_process_alive(long pid)
{
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!h)
        return GetLastError() == ERROR_ACCESS_DENIED; /* exists, not ours to query */
    DWORD code = 0;
    bool alive = GetExitCodeProcess(h, &code) && code == STILL_ACTIVE;
    CloseHandle(h);
    return alive;
}

/* A pipe (a GUI's), a console or a file: PeekNamedPipe, the console's event state, or
 * always ready. A broken pipe counts as ready: the read then sees the end. */
static bool handle_ready(HANDLE h, DWORD wait_ms)
{
    switch (GetFileType(h)) {
    case FILE_TYPE_PIPE: {
        DWORD start = GetTickCount();
        for (;;) {
            DWORD avail = 0;
            if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
                /* Ended: the read sees the end. Cannot tell (wine's pipes from the
                 * host system): not ready, so that nothing blocks on a guess. */
                return GetLastError() == ERROR_BROKEN_PIPE;
            if (avail > 0)
                return true;
            if (GetTickCount() - start >= wait_ms)
                return false;
            Sleep(1);
        }
    }
    case FILE_TYPE_CHAR:
        return WaitForSingleObject(h, wait_ms) == WAIT_OBJECT_0;
    default:
        return true;
    }
}

bool pf_input_ready(FILE *in)
{
    if (in->_cnt > 0)
        return true;
    return handle_ready((HANDLE)_get_osfhandle(_fileno(in)), 0);
}

void pf_ignore_broken_pipe(void)
{
    /* Windows has no SIGPIPE: a write to a closed pipe fails with EPIPE. */
}

PfSignalHandler pf_on_interrupt(PfSignalHandler handler)
{
    return signal(SIGINT, handler);
}

/* ---- POSIX names on Windows ---- */

static HANDLE os_handle(int fd)
{
    return (HANDLE)_get_osfhandle(fd);
}

static int fail(int err)
{
    errno = err;
    return -1;
}

static int errno_of_last_error(void)
{
    switch (GetLastError()) {
    case ERROR_LOCK_VIOLATION:
    case ERROR_SHARING_VIOLATION:
        return EWOULDBLOCK;
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
        return EACCES;
    case ERROR_DISK_FULL:
        return ENOSPC;
    default:
        return EIO;
    }
}

/* A lock on the file's whole range, which is what flock locks. */
int flock(int fd, int op)
{
    HANDLE h = os_handle(fd);
    if (h == INVALID_HANDLE_VALUE)
        return fail(EBADF);
    OVERLAPPED ov = {0};
    if (op & LOCK_UN)
        return UnlockFileEx(h, 0, MAXDWORD, MAXDWORD, &ov) ? 0 : fail(errno_of_last_error());
    DWORD flags = (op & LOCK_EX ? LOCKFILE_EXCLUSIVE_LOCK : 0)
                | (op & LOCK_NB ? LOCKFILE_FAIL_IMMEDIATELY : 0);
    return LockFileEx(h, flags, 0, MAXDWORD, MAXDWORD, &ov) ? 0 : fail(errno_of_last_error());
}

ssize_t pread(int fd, void *buf, size_t n, off_t offset)
{
    HANDLE h = os_handle(fd);
    OVERLAPPED ov = {.Offset = (DWORD)((uint64_t)offset & 0xffffffffu),
                     .OffsetHigh = (DWORD)((uint64_t)offset >> 32)};
    DWORD got = 0;
    if (n > MAXDWORD)
        n = MAXDWORD;
    if (!ReadFile(h, buf, (DWORD)n, &got, &ov))
        return GetLastError() == ERROR_HANDLE_EOF ? 0 : fail(errno_of_last_error());
    return (ssize_t)got;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset)
{
    HANDLE h = os_handle(fd);
    OVERLAPPED ov = {.Offset = (DWORD)((uint64_t)offset & 0xffffffffu),
                     .OffsetHigh = (DWORD)((uint64_t)offset >> 32)};
    DWORD put = 0;
    if (n > MAXDWORD)
        n = MAXDWORD;
    if (!WriteFile(h, buf, (DWORD)n, &put, &ov))
        return fail(errno_of_last_error());
    return (ssize_t)put;
}

int fsync(int fd)
{
    return FlushFileBuffers(os_handle(fd)) ? 0 : fail(errno_of_last_error());
}

int fcntl(int fd, int cmd, ...)
{
    (void)fd, (void)cmd;
    return 0; /* only F_GETFL / F_SETFL of O_NONBLOCK, which is 0 here */
}

int link(const char *target, const char *path)
{
    return CreateHardLinkA(path, target, NULL) ? 0 : fail(errno_of_last_error());
}

/* A hard link where it can be made (same volume), else a symbolic link (needs developer
 * mode or the privilege), else a failure. */
int symlink(const char *target, const char *path)
{
    if (CreateHardLinkA(path, target, NULL))
        return 0;
    if (CreateSymbolicLinkA(path, target, 0x2 /* ALLOW_UNPRIVILEGED_CREATE */))
        return 0;
    return fail(errno_of_last_error());
}

char *mkdtemp(char *templ)
{
    size_t len = strlen(templ);
    if (len < 6 || strcmp(templ + len - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return NULL;
    }
    static const char CHARS[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned seed = (unsigned)GetTickCount() ^ (unsigned)GetCurrentProcessId() * 2654435761u;
    for (int attempt = 0; attempt < 100; attempt++) {
        for (size_t i = len - 6; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            templ[i] = CHARS[(seed >> 16) % (sizeof CHARS - 1)];
        }
        if (_mkdir(templ) == 0)
            return templ;
        if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}

char *realpath(const char *path, char *resolved)
{
    char *r = _fullpath(resolved, path, resolved ? MAX_PATH : 0);
    if (!r)
        return NULL;
    if (GetFileAttributesA(r) == INVALID_FILE_ATTRIBUTES) {
        errno = ENOENT;
        if (!resolved)
            free(r);
        return NULL;
    }
    forward_slashes(r);
    return r;
}

int lstat(const char *path, struct stat *st)
{
    return pf_stat(path, st);
}

/* The identity of an open file: volume serial number and 64-bit file index, folded into
 * the C library's st_dev and 16-bit st_ino. */
static void fill_identity(HANDLE h, struct stat *st)
{
    BY_HANDLE_FILE_INFORMATION info;
    if (h == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(h, &info))
        return;
    uint64_t index = (uint64_t)info.nFileIndexHigh << 32 | info.nFileIndexLow;
    st->st_dev =
        (_dev_t)(info.dwVolumeSerialNumber ^ (uint32_t)(index >> 16) ^ (uint32_t)(index >> 48));
    st->st_ino = (_ino_t)(index & 0xffff);
}

int pf_stat(const char *path, struct stat *st)
{
    if ((stat)(path, st) != 0)
        return -1;
    HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    fill_identity(h, st);
    if (h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
    return 0;
}

int pf_fstat(int fd, struct stat *st)
{
    if ((fstat)(fd, st) != 0)
        return -1;
    fill_identity(os_handle(fd), st);
    return 0;
}

bool pf_sync_dir(const char *dir)
{
    (void)dir;
    return true;
}

/* A read-only stream of the bytes, through a temporary file deleted on close (the
 * Windows C library has no memory streams). */
FILE *fmemopen(void *buf, size_t size, const char *mode)
{
    if (mode[0] != 'r') {
        errno = EINVAL;
        return NULL;
    }
    char dir[MAX_PATH + 1], name[MAX_PATH + 1];
    if (!GetTempPathA(sizeof dir, dir) || !GetTempFileNameA(dir, "sav", 0, name))
        return NULL;
    FILE *f = fopen(name, "w+bTD");
    if (!f)
        return NULL;
    if (fwrite(buf, 1, size, f) != size || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    return f;
}

char *strcasestr(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++)
        if (_strnicmp(haystack, needle, n) == 0)
            return (char *)haystack;
    return n == 0 ? (char *)haystack : NULL;
}

char *strsignal(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "Segmentation fault";
    case SIGABRT:
        return "Aborted";
    case SIGFPE:
        return "Floating point exception";
    case SIGILL:
        return "Illegal instruction";
    default:
        return "Signal";
    }
}

int poll(struct pollfd *fds, unsigned long nfds, int timeout_ms)
{
    if (nfds != 1)
        return fail(EINVAL);
    fds[0].revents = 0;
    if (!handle_ready(os_handle(fds[0].fd), timeout_ms < 0 ? INFINITE : (DWORD)timeout_ms))
        return 0;
    fds[0].revents = POLLIN;
    return 1;
}

int kill(pid_t pid, int sig)
{
    if (sig == 0)
        return pf_process_alive(pid) ? 0 : fail(ESRCH);
    return fail(ENOSYS);
}

int fork(void)
{
    return fail(ENOSYS);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    (void)pid, (void)status, (void)options;
    return fail(ECHILD);
}

/* rename that replaces an existing file, as POSIX rename does, and is durable. */
int pf_rename(const char *from, const char *to)
{
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    if (GetLastError() != ERROR_ACCESS_DENIED)
        return fail(errno_of_last_error());
    /* The target is open elsewhere (the learning file, locked by its reader): POSIX
     * rename semantics (Windows 10 1709 and later, NTFS) replace it all the same. */
    wchar_t wto[MAX_PATH * 2];
    int n = MultiByteToWideChar(CP_ACP, 0, to, -1, wto, MAX_PATH * 2);
    HANDLE h = CreateFileA(from, DELETE | SYNCHRONIZE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (n <= 0 || h == INVALID_HANDLE_VALUE) {
        if (h != INVALID_HANDLE_VALUE)
            CloseHandle(h);
        return fail(EACCES);
    }
    size_t size = sizeof(FILE_RENAME_INFO) + (size_t)n * sizeof(wchar_t);
    FILE_RENAME_INFO *info = calloc(1, size);
    bool ok = false;
    if (info) {
        info->Flags = FILE_RENAME_FLAG_REPLACE_IF_EXISTS | FILE_RENAME_FLAG_POSIX_SEMANTICS;
        info->FileNameLength = (DWORD)((size_t)(n - 1) * sizeof(wchar_t));
        memcpy(info->FileName, wto, (size_t)n * sizeof(wchar_t));
        ok = SetFileInformationByHandle(h, FileRenameInfoEx, info, (DWORD)size);
        free(info);
    }
    CloseHandle(h);
    return ok ? 0 : fail(EACCES);
}

/* The handler only (no masks or flags on Windows), which is all the callers set. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    void (*prev)(int) = act ? signal(sig, act->sa_handler) : signal(sig, SIG_DFL);
    if (prev == SIG_ERR)
        return fail(EINVAL);
    if (!act)
        signal(sig, prev);
    if (old)
        *old = (struct sigaction){.sa_handler = prev};
    return 0;
}

void pf_end_reader(pthread_t reader, bool blocked)
{
    if (!blocked) {
        pthread_join(reader, NULL);
        return;
    }
    HANDLE h = pthread_gethandle(reader);
    for (int i = 0; i < 25; i++) {
        CancelSynchronousIo(h);
        if (WaitForSingleObject(h, 20) == WAIT_OBJECT_0) {
            pthread_join(reader, NULL);
            return;
        }
    }
    pthread_detach(reader);
}

int fchown(int fd, uid_t uid, gid_t gid)
{
    (void)fd, (void)uid, (void)gid;
    return 0; /* files have no owner to keep here */
}

int fchmod(int fd, int mode)
{
    (void)fd, (void)mode;
    return 0; /* no permission bits to keep here */
}

long sysconf(int name)
{
    if (name != _SC_NPROCESSORS_ONLN) {
        errno = EINVAL;
        return -1;
    }
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (long)si.dwNumberOfProcessors;
}

long pf_min_signal_stack(void)
{
    return 0; /* no signal stacks: tbguard_windows.c */
}

int pf_open(const char *path, int flags, ...)
{
    DWORD access = (flags & O_ACCMODE) == O_RDONLY ? GENERIC_READ
                   : (flags & O_ACCMODE) == O_WRONLY ? GENERIC_WRITE : GENERIC_READ | GENERIC_WRITE;
    if (flags & O_APPEND)
        access |= FILE_APPEND_DATA;
    DWORD disposition = flags & O_CREAT ? (flags & O_EXCL    ? CREATE_NEW
                                           : flags & O_TRUNC ? CREATE_ALWAYS
                                                             : OPEN_ALWAYS)
                      : flags & O_TRUNC ? TRUNCATE_EXISTING
                                        : OPEN_EXISTING;
    HANDLE h = CreateFileA(path, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, disposition, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        errno =
            e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS ? EEXIST : errno_of_last_error();
        return -1;
    }
    int fd = _open_osfhandle((intptr_t)h,
                             (flags & (O_APPEND | O_RDONLY | O_WRONLY | O_RDWR)) | _O_BINARY);
    if (fd < 0)
        CloseHandle(h);
    return fd;
}

int pf_mkstemp(char *templ)
{
    size_t len = strlen(templ);
    if (len < 6 || strcmp(templ + len - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    static const char CHARS[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned seed = (unsigned)GetTickCount() ^ (unsigned)GetCurrentThreadId() * 2654435761u;
    for (int attempt = 0; attempt < 100; attempt++) {
        for (size_t i = len - 6; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            templ[i] = CHARS[(seed >> 16) % (sizeof CHARS - 1)];
        }
        int fd = pf_open(templ, O_RDWR | O_CREAT | O_EXCL);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int pf_child_open(PfChild *child, const char *program, const char *error_path)
{
    child->to = NULL;
    child->old_pipe = NULL;
    /* cmd.exe would say "not recognized" and exit 9009; asking first says it plainly. */
    char found[MAX_PATH];
    if (!SearchPathA(NULL, program, ".exe", sizeof found, found, NULL))
        return PF_CHILD_NOT_FOUND;
    /* The program's name comes first, unquoted, so cmd.exe keeps the path's quotes. */
    char command[8400];
    if (strchr(error_path, '"')
        || snprintf(command, sizeof command, "%s 2>\"%s\"", program, error_path)
               >= (int)sizeof command) {
        errno = EINVAL;
        return -1;
    }
    child->to = _popen(command, "w");
    return child->to ? 0 : -1;
}

int pf_child_close(PfChild *child)
{
    int code = _pclose(child->to);
    child->to = NULL;
    return code == 9009 ? PF_CHILD_NOT_FOUND : code;
}

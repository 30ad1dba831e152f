/* Runner of the tiny test framework (see test.h): registry, checks, command line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/position.h"
#include "test.h"
#include "util/timeutil.h"

#define MAX_TESTS 2048
#define MAX_PRINTED_FAILURES 20 /* per test case, so one broken loop cannot flood the log */

typedef struct {
    const char *name;
    const char *file;
    TestFunction fn;
} TestCase;

/* The registry is filled by constructors before main, then only read: the runner's
 * state lives here because TEST() cannot pass a context to constructors. */
static TestCase registry[MAX_TESTS];
static int registry_count;
static int current_failures;
static bool opt_perft_full;
static bool opt_verbose;

void test_register(const char *name, TestFunction fn, const char *file)
{
    if (registry_count >= MAX_TESTS) {
        fprintf(stderr, "test.h: too many tests (raise MAX_TESTS), dropping %s\n", name);
        return;
    }
    registry[registry_count++] = (TestCase){ name, file, fn };
}

static void report_failure(const char *file, int line, const char *fmt, va_list ap)
{
    current_failures++;
    if (current_failures > MAX_PRINTED_FAILURES) {
        if (current_failures == MAX_PRINTED_FAILURES + 1)
            printf("    ... further failures of this test not shown\n");
        return;
    }
    printf("    %s:%d: ", file, line);
    vprintf(fmt, ap);
    printf("\n");
}

static void fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_failure(file, line, fmt, ap);
    va_end(ap);
}

bool test_check(bool ok, const char *file, int line, const char *expr)
{
    if (!ok)
        fail(file, line, "CHECK(%s) failed", expr);
    return ok;
}

bool test_check_eq(long long a, long long b, const char *file, int line,
                   const char *expr_a, const char *expr_b)
{
    if (a != b)
        fail(file, line, "CHECK_EQ(%s, %s) failed: %lld != %lld", expr_a, expr_b, a, b);
    return a == b;
}

bool test_check_str_eq(const char *a, const char *b, const char *file, int line,
                       const char *expr_a, const char *expr_b)
{
    bool ok = a && b ? strcmp(a, b) == 0 : a == b;
    if (!ok)
        fail(file, line, "CHECK_STR_EQ(%s, %s) failed: \"%s\" != \"%s\"", expr_a, expr_b,
             a ? a : "(null)", b ? b : "(null)");
    return ok;
}

bool test_check_msg(bool ok, const char *file, int line, const char *fmt, ...)
{
    if (!ok) {
        va_list ap;
        va_start(ap, fmt);
        report_failure(file, line, fmt, ap);
        va_end(ap);
    }
    return ok;
}

void test_log(const char *fmt, ...)
{
    if (!opt_verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("    ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

bool test_perft_full(void) { return opt_perft_full; }

const char *test_data_path(const char *name, char *buf, size_t size)
{
    const char *dir = getenv("SAAVEDRA_TEST_DATA");
    snprintf(buf, size, "%s/%s", dir && *dir ? dir : "tests/data", name);
    return buf;
}

size_t test_read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

long test_proc_status(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    size_t n = strlen(field);
    long value = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':' && sscanf(line + n + 1, "%ld", &value) == 1)
            break;
    fclose(f);
    return value;
}

/* Whether name is one of the comma-separated names of list (tests that need what a
 * platform lacks, such as fork). */
static bool skipped(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return true;
        p = comma ? comma + 1 : p + len;
    }
    return false;
}

static int usage(void)
{
    fprintf(stderr, "usage: unit-tests [--filter S] [--skip NAME,...] [--perft-full] [--list] [--verbose]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *filter = NULL, *skip = NULL;
    bool list_only = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
            skip = argv[++i];
        else if (!strcmp(argv[i], "--perft-full"))
            opt_perft_full = true;
        else if (!strcmp(argv[i], "--list"))
            list_only = true;
        else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v"))
            opt_verbose = true;
        else
            return usage();
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    position_init();

    int passed = 0, failed = 0;
    for (int i = 0; i < registry_count; i++) {
        const TestCase *t = &registry[i];
        if ((filter && !strstr(t->name, filter)) || skipped(skip, t->name))
            continue;
        if (list_only) {
            printf("%s (%s)\n", t->name, t->file);
            continue;
        }
        current_failures = 0;
        int64_t start = time_now_ms();
        t->fn();
        int64_t ms = time_now_ms() - start;
        if (current_failures) {
            failed++;
            printf("FAIL %s (%s, %d failed checks, %lld ms)\n", t->name, t->file,
                   current_failures, (long long)ms);
        } else {
            passed++;
            printf("ok   %s (%lld ms)\n", t->name, (long long)ms);
        }
    }
    if (list_only)
        return 0;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

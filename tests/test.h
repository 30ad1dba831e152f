/* A tiny unit-test framework for Saavedra.
 *
 * Use: each tests/test_*.c file includes "test.h" and defines tests; nothing else is
 * needed (no list to edit, no main): TEST registers the function before main runs.
 *
 *     #include "test.h"
 *     TEST(fen_round_trip)
 *     {
 *         Position pos;
 *         char err[160];
 *         if (!CHECK(position_from_fen(&pos, START_FEN, err, sizeof err, NULL)))
 *             return;                        // every CHECK* yields true when it passed
 *         CHECK_EQ(count_legal_moves(&pos), 20);
 *         CHECK_STR_EQ(some_string, "expected");
 *         CHECK_MSG(ok, "perft %d of %s", depth, fen);   // printf-style context
 *     }
 *
 * A failed CHECK prints "file:line: message" and marks the test case failed; the test
 * goes on (return early yourself when continuing makes no sense). Test names must be
 * unique C identifiers across all files.
 *
 * The binary (build/<arch>/unit-tests) runs every test, position_init() already done:
 *     unit-tests [--filter S] [--perft-full] [--list] [--verbose]
 * --filter S runs only tests whose name contains S; --perft-full asks long tests to go
 * all the way (see test_perft_full()). The last line is exactly "N passed, N failed",
 * counting test cases; the exit status is non-zero when any failed.
 * Data files live in tests/data/ (test_data_path()); run from the repository root or
 * set SAAVEDRA_TEST_DATA to that directory.
 */
#ifndef SAAVEDRA_TEST_H
#define SAAVEDRA_TEST_H

#include <stdbool.h>
#include <stddef.h>

typedef void (*TestFunction)(void);

void test_register(const char *name, TestFunction fn, const char *file);

#define TEST(name)                                                               \
    static void test_fn_##name(void);                                            \
    __attribute__((constructor)) static void test_reg_##name(void)               \
    {                                                                            \
        test_register(#name, test_fn_##name, __FILE__);                          \
    }                                                                            \
    static void test_fn_##name(void)

bool test_check(bool ok, const char *file, int line, const char *expr);
bool test_check_eq(long long a, long long b, const char *file, int line,
                   const char *expr_a, const char *expr_b);
bool test_check_str_eq(const char *a, const char *b, const char *file, int line,
                       const char *expr_a, const char *expr_b);
bool test_check_msg(bool ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define CHECK(cond) test_check((cond) ? true : false, __FILE__, __LINE__, #cond)
#define CHECK_EQ(a, b) test_check_eq((long long)(a), (long long)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR_EQ(a, b) test_check_str_eq((a), (b), __FILE__, __LINE__, #a, #b)
#define CHECK_MSG(cond, ...) test_check_msg((cond) ? true : false, __FILE__, __LINE__, __VA_ARGS__)

/* Informational line, shown with --verbose only. */
void test_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* True when run with --perft-full (long, exhaustive variants of tests). */
bool test_perft_full(void);
/* Writes "<data dir>/<name>" into buf and returns buf. */
const char *test_data_path(const char *name, char *buf, size_t size);
/* The file at path, byte for byte, into buf (at most size - 1 bytes, then a NUL); the
 * number of bytes read, 0 if it cannot be opened. */
size_t test_read_file(const char *path, char *buf, size_t size);
/* A number from this process's /proc/self/status ("VmRSS" in kB, "Threads"), -1 when
 * unknown (no /proc). */
long test_proc_status(const char *field);

#endif

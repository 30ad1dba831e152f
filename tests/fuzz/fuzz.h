/* Shared helpers of the libFuzzer harnesses (tests/fuzz/fuzz_*.c, built by `make fuzz`).
 * Each harness feeds one input surface arbitrary bytes; a crash, a sanitizer report, a
 * hang or a broken invariant (fuzz_require) is a finding. See docs/testing.md. */
#ifndef SAAVEDRA_FUZZ_H
#define SAAVEDRA_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A NUL-terminated copy of the input (embedded NULs kept: a reader sees what a C string
 * of the bytes would show). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* An invariant of the code under test: its failure is a finding, reported like a crash. */
#define fuzz_require(cond)                                                                   \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);     \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

/* Case-insensitive: whether text holds word anywhere. */
static inline bool fuzz_mentions(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++) {
        size_t k = 0;
        while (k < n) {
            char c = text[i + k];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != word[k])
                break;
            k++;
        }
        if (k == n)
            return true;
    }
    return false;
}

/* The input with every line that mentions one of words (NULL-terminated list) dropped:
 * the protocol harnesses leave out commands whose cost is not a bug (bench, a 100 GB
 * hash table, a file system walk). *out_size receives the length. */
static inline char *fuzz_drop_lines(const uint8_t *data, size_t size, const char *const *words,
                                    size_t *out_size)
{
    char *out = malloc(size + 1);
    if (!out)
        abort();
    size_t n = 0, start = 0;
    while (start < size) {
        size_t end = start;
        while (end < size && data[end] != '\n')
            end++;
        bool drop = false;
        for (const char *const *w = words; *w && !drop; w++)
            drop = fuzz_mentions((const char *)data + start, end - start, *w);
        if (!drop) {
            memcpy(out + n, data + start, end - start);
            n += end - start;
            if (end < size)
                out[n++] = '\n';
        }
        start = end + 1;
    }
    out[n] = '\0';
    *out_size = n;
    return out;
}

#endif

/* See words.h. */
#include "util/words.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int words_split(char *line, char **words, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            return n;
        if (n == max)
            return -1;
        words[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
}

void words_first(const char *line, char *word, size_t size)
{
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = 0;
    while (line[n] && line[n] != ' ' && line[n] != '\t' && line[n] != '\n' && line[n] != '\r'
           && n + 1 < size) {
        word[n] = line[n];
        n++;
    }
    word[n] = '\0';
}

bool word_to_long(const char *word, long lo, long hi, long *out)
{
    if (!word)
        return false;
    char *end;
    errno = 0;
    long v = strtol(word, &end, 10);
    if (end == word || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool word_to_int(const char *word, int lo, int hi, int *out)
{
    long v;
    if (!word_to_long(word, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

/* Words of a text command line: splitting a line into words in place, and reading one
 * word as a whole number, as every command reader (UCI, xboard, console, command line,
 * EPD) needs them. */
#ifndef SAAVEDRA_WORDS_H
#define SAAVEDRA_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* Splits line (modified in place) at blanks into words[0..]; returns the number of
 * words, or -1 when there are more than max. */
int words_split(char *line, char **words, int max);

/* Copies the first word of line (after spaces and tabs; it ends at a space, tab, line
 * end or the end) into word, cut to size - 1 characters; "" when there is none. Reads
 * only the start of a line, as the console does to pick a command before any parsing. */
void words_first(const char *line, char *word, size_t size);

/* A whole word as a decimal number in lo..hi: "12abc", "", overflow or a value out of
 * range gives false and leaves *out unchanged. */
bool word_to_long(const char *word, long lo, long hi, long *out);

/* The same for an int. */
bool word_to_int(const char *word, int lo, int hi, int *out);

#endif

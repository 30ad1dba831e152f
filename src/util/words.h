/* Words of a text command line: splitting a line into words in place, and reading one
 * word as a whole number, as every command reader (UCI, xboard, console, command line,
 * EPD) needs them. */
#ifndef SAAVEDRA_WORDS_H
#define SAAVEDRA_WORDS_H

#include <stdbool.h>

/* Splits line (modified in place) at blanks into words[0..]; returns the number of
 * words, or -1 when there are more than max. */
int words_split(char *line, char **words, int max);

/* A whole word as a decimal number in lo..hi: "12abc", "", overflow or a value out of
 * range gives false and leaves *out unchanged. */
bool word_to_long(const char *word, long lo, long hi, long *out);

/* The same for an int. */
bool word_to_int(const char *word, int lo, int hi, int *out);

#endif

/* Command words: splitting in place, and whole-word numbers. */
#include <limits.h>
#include <string.h>

#include "test.h"
#include "util/words.h"

TEST(words_split_counts_and_limits)
{
    char line[] = "  go  wtime 100\tbtime\r\n 200 ";
    char *w[8];
    CHECK_EQ(words_split(line, w, 8), 5);
    CHECK_STR_EQ(w[0], "go");
    CHECK_STR_EQ(w[2], "100");
    CHECK_STR_EQ(w[4], "200");

    char blank[] = " \t \n";
    CHECK_EQ(words_split(blank, w, 8), 0);

    char exact[] = "a b c";
    CHECK_EQ(words_split(exact, w, 3), 3);
    char more[] = "a b c d";
    CHECK_EQ(words_split(more, w, 3), -1);
    char trailing_blanks[] = "a b c   ";
    CHECK_EQ(words_split(trailing_blanks, w, 3), 3);
}

TEST(words_first_reads_the_command_word)
{
    char w[8];
    const char *line = " \tperft 5";
    words_first(line, w, sizeof w);
    CHECK_STR_EQ(w, "perft");
    CHECK_STR_EQ(line, " \tperft 5"); /* the line is not changed */
    words_first("quit\r\n", w, sizeof w);
    CHECK_STR_EQ(w, "quit");
    words_first("   ", w, sizeof w);
    CHECK_STR_EQ(w, "");
    words_first("", w, sizeof w);
    CHECK_STR_EQ(w, "");
    words_first("position startpos", w, sizeof w); /* cut to size - 1 */
    CHECK_STR_EQ(w, "positio");
}

TEST(word_to_long_whole_words_only)
{
    long v = 7;
    CHECK(word_to_long("42", 0, 100, &v) && v == 42);
    CHECK(word_to_long("-5", -10, 10, &v) && v == -5);
    v = 7;
    CHECK(!word_to_long("12abc", 0, 100, &v));
    CHECK(!word_to_long("", 0, 100, &v));
    CHECK(!word_to_long("abc", 0, 100, &v));
    CHECK(!word_to_long(NULL, 0, 100, &v));
    CHECK(!word_to_long("101", 0, 100, &v));
    CHECK(!word_to_long("-1", 0, 100, &v));
    CHECK(!word_to_long("99999999999999999999999", LONG_MIN, LONG_MAX, &v));
    CHECK_EQ(v, 7); /* untouched by every refusal */

    int i = 3;
    CHECK(word_to_int("2147483647", 0, INT_MAX, &i) && i == INT_MAX);
    CHECK(!word_to_int("2147483648", 0, INT_MAX, &i));
    CHECK_EQ(i, INT_MAX);
}

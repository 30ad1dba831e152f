/* Options of the command-line programs in tools/: "-name VALUE" pairs and "-name"
 * switches, each value checked against its type and range, so that every program refuses
 * a bad option the same way (one line naming the option and what it accepts) instead of
 * reading text as 0.
 *
 *   int games = 100; const char *out = NULL; bool verbose = false;
 *   const ArgSpec specs[] = { { "-games", ARG_INT, &games, 1, 1e6 }, { "-o", ARG_TEXT, &out },
 *                             { "-v", ARG_SWITCH, &verbose } };
 *   int first = args_parse(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err);
 *   (-1: err says why) */
#ifndef SAAVEDRA_ARGS_H
#define SAAVEDRA_ARGS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    ARG_TEXT,    /* const char *: the argument itself */
    ARG_INT,     /* int: a whole number in min..max */
    ARG_U64,     /* uint64_t: a whole number in min..max */
    ARG_SIZE,    /* size_t: a whole number in min..max */
    ARG_REAL,    /* double: a decimal number in min..max */
    ARG_FLOAT,   /* float: likewise */
    ARG_SWITCH   /* bool: set to true, takes no value */
} ArgType;

typedef struct {
    const char *name;   /* as typed: "-games", "--seed" */
    ArgType type;
    void *target;
    double min, max;    /* the accepted range of a number, both ends included; max 0: no
                         * upper bound but the type's */
} ArgSpec;

#define ARGS_COUNT(specs) ((int)(sizeof(specs) / sizeof((specs)[0])))

/* Reads the options in argv[1..argc-1] into their targets, in order (a repeated option:
 * the last wins). Stops at the first argument that is not an option ("-" alone is not
 * one) or after "--", and returns its index (argc when every argument was an option).
 * An unknown option, a missing value or a value outside its type or range returns -1
 * with a one-line reason in err; targets read before it keep their new values. */
int args_parse(int argc, char **argv, const ArgSpec *specs, int count, char *err, size_t err_size);

/* The same for a program that takes options only: an argument that is not an option
 * is refused ("unexpected argument X"). */
bool args_parse_all(int argc, char **argv, const ArgSpec *specs, int count, char *err,
                    size_t err_size);

/* A whole text as a decimal number in min..max (the parser's rule for ARG_REAL), for
 * an option whose value is a number or a word. */
bool args_real(const char *text, double min, double max, double *out);

#endif

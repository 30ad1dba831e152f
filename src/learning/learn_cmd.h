/* `saavedra learn [FILE]`: prints a learning file (docs/learning-format.md) readably:
 * a summary line (size, state, counts), the learned positions merged by key (FEN, SAN
 * best move, score and depth; positions never met in a recorded game show their key and
 * code), the book-move results, and every recorded game as PGN. The file is only read
 * (never repaired), so it can be looked at while engines use it. */
#ifndef SAAVEDRA_LEARN_CMD_H
#define SAAVEDRA_LEARN_CMD_H

#include <stdio.h>

/* Prints the file at path to out; problems go to err. 0 on success. */
int learn_print(const char *path, FILE *out, FILE *err);
/* argv: at most one file name (default saavedra.lrn beside the executable). */
int cmd_learn(int argc, char **argv);

#endif

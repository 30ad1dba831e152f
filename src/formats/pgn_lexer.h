/* Tokenizer of the PGN reader: bytes come from a stream through a fixed buffer, so
 * memory stays constant on any file size. Internal to pgn.c (and its tests). */
#ifndef SAAVEDRA_PGN_LEXER_H
#define SAAVEDRA_PGN_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PGN_READ_CHUNK 65536
#define PGN_TOKEN_MAX 64   /* longer symbols are cut and flagged */
#define PGN_TEXT_MAX 4096  /* longer tag values and comments are truncated and flagged */

typedef enum {
    PGN_T_EOF,
    PGN_T_TAG_OPEN, /* '[' (read the rest with pgn_lexer_read_tag) */
    PGN_T_COMMENT,  /* {...} or ; to the end of the line: text */
    PGN_T_OPEN,     /* '(' */
    PGN_T_CLOSE,    /* ')' */
    PGN_T_NAG,      /* $n: nag_value (-1 when no digits follow) */
    PGN_T_SYMBOL    /* anything else up to a delimiter: token */
} PgnToken;

typedef struct {
    FILE *stream;
    unsigned char buf[PGN_READ_CHUNK];
    size_t len, at;
    long line;               /* line of the next byte */
    bool column0;            /* the next byte starts a line ('%' escapes only there) */
    long token_line;         /* line where the last token started */
    char token[PGN_TOKEN_MAX + 1];
    bool token_too_long;
    int nag_value;
    bool comment_open;       /* the last comment ran into the end of the file */
    char text[PGN_TEXT_MAX]; /* comment or tag value */
    bool text_truncated;
    char tag_name[PGN_TOKEN_MAX + 1];
    int read_errno;          /* the stream failed (an errno value): the EOF is not the end */
} PgnLexer;

void pgn_lexer_init(PgnLexer *lx, FILE *stream);
/* Next token; skips whitespace, '%' escape lines, stray ']' and '}', byte-order marks. */
PgnToken pgn_lexer_next(PgnLexer *lx);
/* After PGN_T_TAG_OPEN: reads `Name "value"]` (escapes \" and \\; an unquoted value or a
 * missing ']' is tolerated up to the end of the line) into tag_name and text. False
 * when the tag has no name. */
bool pgn_lexer_read_tag(PgnLexer *lx);

#endif

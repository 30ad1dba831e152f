/* Streaming PGN reader: constant memory on any file size, tolerant of real-world files.
 *
 * A pull iterator: pgn_next() returns one item at a time. For each game:
 *     PGN_GAME_START, PGN_TAG*, PGN_MOVETEXT (start position known),
 *     then PGN_MOVE / PGN_COMMENT / PGN_NAG / PGN_VARIATION_START / PGN_VARIATION_END,
 *     and finally PGN_GAME_END (result) or PGN_GAME_SKIPPED.
 * A game with an illegal or unreadable move, a bad FEN tag, an unsupported variant or
 * broken structure is reported once through the error sink (file, game number, line,
 * the offending text), ends with PGN_GAME_SKIPPED, and reading goes on with the next
 * game: consumers keep what they gathered for a game only on PGN_GAME_END.
 *
 * Variations are parsed and their moves validated: PGN_VARIATION_START means the moves
 * that follow are an alternative to the last move played at the enclosing level (the
 * position is set back to before that move); PGN_VARIATION_END returns to the enclosing
 * line where it was.
 *
 * Tolerated: a UTF-8 byte-order mark, CRLF, Latin-1 or UTF-8 bytes in tags and comments,
 * blank lines anywhere (games are delimited by results and tags, never by blank lines),
 * move numbers as "12." "12..." or "12", SAN with or without check marks, "e8Q", "0-0",
 * long algebraic and UCI coordinates, suffix annotations ("e4!?" gives a NAG), "%"
 * escape lines, a missing result before the next game's tags or at the end of file.
 * Null moves ("--", "Z0": ChessBase's missing move) come as PGN_MOVE with MOVE_NULL. */
#ifndef SAAVEDRA_PGN_H
#define SAAVEDRA_PGN_H

#include <stdio.h>

#include "board/position.h"

typedef enum {
    PGN_EOF,
    PGN_GAME_START,
    PGN_TAG,
    PGN_MOVETEXT,
    PGN_MOVE,
    PGN_COMMENT,
    PGN_NAG,
    PGN_VARIATION_START,
    PGN_VARIATION_END,
    PGN_GAME_END,
    PGN_GAME_SKIPPED
} PgnEvent;

#define PGN_MAX_DEPTH 64 /* deepest variation nesting accepted */

/* What pgn_next() found. Pointers stay valid until the next call. */
typedef struct {
    PgnEvent event;
    long game;               /* 1-based number of the game in the file */
    long line;               /* line where the item starts */
    const char *tag_name;    /* PGN_TAG */
    const char *tag_value;   /* PGN_TAG (unescaped) */
    const Position *position;/* PGN_MOVE: before the move; PGN_MOVETEXT / PGN_VARIATION_START:
                                where the next move will be played */
    Move move;               /* PGN_MOVE (MOVE_NULL for a null move) */
    const char *text;        /* PGN_MOVE: the move as written; PGN_COMMENT: the comment */
    bool truncated;          /* PGN_COMMENT / PGN_TAG: cut to PGN_TEXT_MAX - 1 bytes
                                (pgn_lexer.h) */
    int ply;                 /* PGN_MOVE: plies from the start position (0 = first move) */
    int depth;               /* variation depth, 0 = main line */
    int nag;                 /* PGN_NAG: 1 = !, 2 = ?, 3 = !!, 4 = ??, 5 = !?, 6 = ?!, or $n */
    const char *result;      /* PGN_GAME_END: "1-0", "0-1", "1/2-1/2" or "*" (also when missing) */
} PgnItem;

/* Receives one line (no newline) per skipped game or unreadable file. */
typedef void (*PgnErrorSink)(void *ctx, const char *message);

typedef struct PgnReader PgnReader;

/* Opens a file (sink NULL = print to stderr). Returns NULL, after reporting, when the file
 * cannot be opened or memory is short. */
PgnReader *pgn_open(const char *path, PgnErrorSink sink, void *ctx);
/* Reads from an open stream, not closed by pgn_close; name is used in messages. */
PgnReader *pgn_open_stream(FILE *stream, const char *name, PgnErrorSink sink, void *ctx);
void pgn_close(PgnReader *r);

const PgnItem *pgn_next(PgnReader *r);

/* Games ended normally / skipped after an error so far. */
long pgn_games_read(const PgnReader *r);
long pgn_games_skipped(const PgnReader *r);
/* Whether reading stopped on an error (a directory, a failing disk) rather than at the
 * end of the file; the error is reported once through the sink at PGN_EOF. */
bool pgn_read_failed(const PgnReader *r);

#endif

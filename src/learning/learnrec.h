/* The learning file's bytes (docs/learning-format.md): the header and the three record
 * kinds (learned positions, finished games, book-move results), encoded into and parsed
 * from memory. No file access here: learnfile.h reads, appends and compacts files.
 *
 * Every record is [kind u8][0 u8][length u16][payload][CRC-32 u32], little-endian, the
 * length counting the whole record and the CRC covering everything before it. Parsing
 * stops at the first record that is cut short or fails its checksum and says whether
 * that is a torn last append (the last record, its length fitting its kind, no intact
 * record inside the bytes it would cover) or damage (anything else). */
#ifndef SAAVEDRA_LEARNREC_H
#define SAAVEDRA_LEARNREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/types.h"

#define LEARN_MAGIC "SAAVLRN\x1a"
#define LEARN_FORMAT_VERSION 1
/* How Zobrist keys are made (position.c); the header also stores the start position's
 * key, so a changed key scheme is noticed even if nobody bumps this. */
#define LEARN_ZOBRIST_SCHEME 1
#define LEARN_HEADER_SIZE 32
#define LEARN_RECORD_OVERHEAD 8   /* 4-byte record header + 4-byte CRC */
#define LEARN_RECORD_MAX 65535
#define LEARN_FEN_MAX 100
/* Longer games keep their first LEARN_GAME_PLIES_MAX plies (flag LEARN_GAME_CUT). */
#define LEARN_GAME_PLIES_MAX 16384

enum { LEARN_KIND_POSITION = 'P', LEARN_KIND_GAME = 'G', LEARN_KIND_BOOK = 'B' };
#define LEARN_POSITION_SIZE (LEARN_RECORD_OVERHEAD + 13)
#define LEARN_BOOK_SIZE (LEARN_RECORD_OVERHEAD + 15)

/* Result of a game, as PGN writes it. */
typedef enum { LEARN_RESULT_UNKNOWN = 0, LEARN_RESULT_WHITE = 1, LEARN_RESULT_BLACK = 2,
               LEARN_RESULT_DRAW = 3 } LearnResult;
/* Which side the engine played (LEARN_SIDE_NONE: both, or neither, e.g. analysis). */
enum { LEARN_SIDE_WHITE = 0, LEARN_SIDE_BLACK = 1, LEARN_SIDE_NONE = 2 };
enum { LEARN_GAME_STARTPOS = 1, LEARN_GAME_CUT = 2 };

/* A learned position: the side to move's best move (as its one-byte code, when has_move)
 * with the score (internal units, side to move's view) and depth of the search. */
typedef struct {
    Key key;
    uint8_t code;
    bool has_move;
    int16_t score;
    uint8_t depth;
} LearnPosition;

/* Results of one book move (key of the position before it, its code), from the view of
 * the side that played it. */
typedef struct {
    Key key;
    uint8_t code;
    uint16_t wins, draws, losses;
} LearnBookStat;

/* A finished game. codes points into the parsed data (or the caller's array). */
typedef struct {
    uint8_t result;      /* LearnResult */
    uint8_t own_side;    /* LEARN_SIDE_* */
    uint8_t flags;       /* LEARN_GAME_* */
    char fen[LEARN_FEN_MAX + 1]; /* "" with LEARN_GAME_STARTPOS */
    int ply_count;
    const uint8_t *codes;
} LearnGame;

/* The 32 header bytes this build writes (deterministic: no time stamp). */
void learn_header_make(uint8_t out[LEARN_HEADER_SIZE]);

/* Record encoders: write one whole record at out and return its size (0 if it does not
 * fit in cap, or the game's FEN is too long). */
size_t learn_encode_position(const LearnPosition *p, uint8_t *out, size_t cap);
size_t learn_encode_book(const LearnBookStat *b, uint8_t *out, size_t cap);
size_t learn_encode_game(const LearnGame *g, uint8_t *out, size_t cap);

typedef struct {
    void (*on_position)(void *ctx, const LearnPosition *p);
    void (*on_game)(void *ctx, const LearnGame *g);
    void (*on_book)(void *ctx, const LearnBookStat *b);
    void *ctx;
} LearnVisitor;

typedef enum {
    LEARN_PARSE_OK,        /* every byte belongs to a valid record */
    LEARN_PARSE_EMPTY,     /* no bytes, or a prefix of our own header (a file being created) */
    LEARN_PARSE_TORN,      /* the last record is cut short or fails its checksum */
    LEARN_PARSE_DAMAGED,   /* a bad record before the end: the file is damaged */
    LEARN_PARSE_FOREIGN,   /* our magic, but another format, version or key scheme, or a
                              damaged header */
    LEARN_PARSE_NOT_OURS   /* does not start with our magic: some other file */
} LearnParseStatus;

typedef struct {
    LearnParseStatus status;
    size_t valid_end;      /* bytes from the start that hold the header and intact records */
    int positions, games, books, others; /* others: intact records of unknown kinds */
    char why[120];         /* what was wrong, for the one warning */
} LearnParse;

/* Parses a whole file image (from offset 0; header included). Visits every intact record
 * before the first bad one; v may be NULL. */
void learn_parse(const uint8_t *data, size_t size, const LearnVisitor *v, LearnParse *out);
/* Same for the size bytes found at offset base (>= LEARN_HEADER_SIZE, at a record
 * boundary) of a file whose header was already checked; valid_end and the byte
 * positions in why are file offsets. */
void learn_parse_from(const uint8_t *data, size_t size, size_t base, const LearnVisitor *v,
                      LearnParse *out);

#endif

/* EPD records: a position (the FEN's first four fields, optional counters) followed by
 * operations "opcode operand ...;" such as bm, am, id, c0, hmvc, fmvn. */
#ifndef SAAVEDRA_EPD_H
#define SAAVEDRA_EPD_H

#include <stddef.h>

#include "board/position.h"

#define EPD_MAX_OPERATIONS 32
#define EPD_MAX_OPERANDS 128  /* over all operations of a record */
#define EPD_TEXT_SIZE 2048    /* opcodes and operands, NUL-separated */

/* Strings are stored as offsets into text[], so records can be copied by assignment. */
typedef struct {
    uint16_t opcode;         /* offset of the opcode in text[] */
    uint16_t first_operand;  /* index into operands[] */
    uint16_t operand_count;
} EpdOperation;

typedef struct {
    char fen[128];           /* the position as parsed, printed back as a full FEN */
    int operation_count;
    EpdOperation operations[EPD_MAX_OPERATIONS];
    int operand_total;
    uint16_t operands[EPD_MAX_OPERANDS]; /* offsets in text[], quotes removed */
    size_t text_used;
    char text[EPD_TEXT_SIZE];
} EpdRecord;

/* Lines with nothing to parse: blank or starting with '#'. */
bool epd_is_blank(const char *line);

/* Parses one EPD line into *pos and *rec. Operands are separated by blanks; a quoted
 * operand ("...") may hold blanks and semicolons. The last ';' may be missing. hmvc and
 * fmvn set the position's counters. On failure returns false, writes a one-line reason
 * to err and leaves *pos untouched. */
bool epd_parse(const char *line, Position *pos, EpdRecord *rec, char *err, size_t err_size);

const char *epd_opcode(const EpdRecord *rec, int operation);
int epd_operand_count(const EpdRecord *rec, int operation);
const char *epd_operand(const EpdRecord *rec, int operation, int index);
/* Index of the first operation with that opcode (case-sensitive, as EPD is), or -1. */
int epd_find(const EpdRecord *rec, const char *opcode);
/* First operand of the opcode (e.g. the id or c0 text), or NULL when absent. */
const char *epd_string(const EpdRecord *rec, const char *opcode);

/* Reads the operands of a move opcode (bm, am, pm, sm) as moves of pos with the tolerant
 * SAN reader. Returns how many were stored in moves[] (0 when the opcode is absent), or
 * -1 with a reason in err when an operand is not a legal move here. */
int epd_moves(const EpdRecord *rec, const Position *pos, const char *opcode,
              Move *moves, int max, char *err, size_t err_size);

/* Writes the record as one EPD line (the four position fields, then the operations,
 * quoting operands that need it) into buf; returns false if it does not fit. */
bool epd_format(const EpdRecord *rec, char *buf, size_t size);

#endif

/* EPD line parser and writer. The position part goes through position_from_fen (which
 * validates it); the operations are split here into opcodes and operands. */
#include "formats/epd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "board/notation.h"
#include "util/words.h"

bool epd_is_blank(const char *line)
{
    while (*line && isspace((unsigned char)*line))
        line++;
    return !*line || *line == '#';
}

/* Appends len bytes plus a NUL to the record's text; returns the offset or -1. */
static int store(EpdRecord *rec, const char *s, size_t len)
{
    if (rec->text_used + len + 1 > sizeof rec->text)
        return -1;
    int offset = (int)rec->text_used;
    memcpy(rec->text + offset, s, len);
    rec->text[offset + len] = '\0';
    rec->text_used += len + 1;
    return offset;
}

static bool is_opcode_start(char c) { return isalpha((unsigned char)c); }
static bool is_opcode_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Parses the operations after the position fields into rec. */
static bool parse_operations(const char *p, EpdRecord *rec, char *err, size_t err_size)
{
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || *p == ';'))
            p++;
        if (!*p)
            return true;
        if (!is_opcode_start(*p))
            return error_set(err, err_size, "EPD opcode expected at '%.20s'", p);
        const char *start = p;
        while (is_opcode_char(*p))
            p++;
        if (*p && !isspace((unsigned char)*p) && *p != ';')
            return error_set(err, err_size, "bad EPD opcode at '%.20s'", start);
        if (p - start > 15)
            return error_set(err, err_size, "EPD opcode too long at '%.20s'", start);
        if (rec->operation_count >= EPD_MAX_OPERATIONS)
            return error_set(err, err_size, "more than %d EPD operations", EPD_MAX_OPERATIONS);
        int opcode = store(rec, start, (size_t)(p - start));
        if (opcode < 0)
            return error_set(err, err_size, "EPD line too long");
        EpdOperation *op = &rec->operations[rec->operation_count++];
        op->opcode = (uint16_t)opcode;
        op->first_operand = (uint16_t)rec->operand_total;
        op->operand_count = 0;

        /* Operands up to the ';' that ends the operation (or the end of the line). */
        for (;;) {
            while (*p && isspace((unsigned char)*p))
                p++;
            if (!*p || *p == ';')
                break;
            const char *begin;
            size_t len;
            if (*p == '"') {
                begin = ++p;
                while (*p && *p != '"')
                    p++;
                if (!*p)
                    return error_set(err, err_size, "unterminated string in EPD operation '%s'",
                                     rec->text + op->opcode);
                len = (size_t)(p - begin);
                p++;
            } else {
                begin = p;
                while (*p && !isspace((unsigned char)*p) && *p != ';')
                    p++;
                len = (size_t)(p - begin);
            }
            if (rec->operand_total >= EPD_MAX_OPERANDS)
                return error_set(err, err_size, "more than %d EPD operands", EPD_MAX_OPERANDS);
            int offset = store(rec, begin, len);
            if (offset < 0)
                return error_set(err, err_size, "EPD line too long");
            rec->operands[rec->operand_total++] = (uint16_t)offset;
            op->operand_count++;
        }
    }
}

/* hmvc and fmvn: plain digits, no sign. */
static bool parse_counter(const char *s, int min, int max, int *out)
{
    return s && isdigit((unsigned char)*s) && word_to_int(s, min, max, out);
}

bool epd_parse(const char *line, Position *pos, EpdRecord *rec, char *err, size_t err_size)
{
    /* A scratch position keeps *pos untouched until the whole line is known good. */
    Position *tmp = malloc(sizeof *tmp);
    if (!tmp)
        return error_set(err, err_size, "out of memory");
    const char *rest;
    if (!position_from_fen(tmp, line, err, err_size, &rest)) {
        free(tmp);
        return false;
    }
    memset(rec, 0, offsetof(EpdRecord, text));
    rec->text[0] = '\0';
    bool ok = parse_operations(rest, rec, err, err_size);

    /* hmvc / fmvn override the counters. */
    const char *hmvc = epd_string(rec, "hmvc"), *fmvn = epd_string(rec, "fmvn");
    int value;
    if (ok && hmvc) {
        if (parse_counter(hmvc, 0, 100000, &value))
            tmp->states[tmp->st_index].rule50 = value;
        else
            ok = error_set(err, err_size, "bad hmvc operand '%s'", hmvc);
    }
    if (ok && fmvn) {
        if (parse_counter(fmvn, 1, 100000, &value))
            tmp->game_ply = 2 * (value - 1) + (tmp->side == BLACK);
        else
            ok = error_set(err, err_size, "bad fmvn operand '%s'", fmvn);
    }
    if (ok) {
        position_to_fen(tmp, rec->fen);
        memcpy(pos, tmp,
               offsetof(Position, states) + sizeof(StateInfo) * (size_t)(tmp->st_index + 1));
    }
    free(tmp);
    return ok;
}

const char *epd_opcode(const EpdRecord *rec, int operation)
{
    if (operation < 0 || operation >= rec->operation_count)
        return NULL;
    return rec->text + rec->operations[operation].opcode;
}

int epd_operand_count(const EpdRecord *rec, int operation)
{
    if (operation < 0 || operation >= rec->operation_count)
        return 0;
    return rec->operations[operation].operand_count;
}

const char *epd_operand(const EpdRecord *rec, int operation, int index)
{
    if (index < 0 || index >= epd_operand_count(rec, operation))
        return NULL;
    return rec->text + rec->operands[rec->operations[operation].first_operand + index];
}

int epd_find(const EpdRecord *rec, const char *opcode)
{
    for (int i = 0; i < rec->operation_count; i++)
        if (!strcmp(epd_opcode(rec, i), opcode))
            return i;
    return -1;
}

const char *epd_string(const EpdRecord *rec, const char *opcode)
{
    return epd_operand(rec, epd_find(rec, opcode), 0);
}

int epd_moves(const EpdRecord *rec, const Position *pos, const char *opcode,
              Move *moves, int max, char *err, size_t err_size)
{
    int op = epd_find(rec, opcode), count = 0;
    for (int i = 0; i < epd_operand_count(rec, op); i++) {
        /* Some suites separate alternatives with commas ("Bg4, Re2"). */
        char text[32];
        snprintf(text, sizeof text, "%s", epd_operand(rec, op, i));
        size_t len = strlen(text);
        while (len && text[len - 1] == ',')
            text[--len] = '\0';
        if (!len)
            continue;
        Move m = move_from_san(pos, text);
        if (m == MOVE_NONE) {
            error_set(err, err_size, "%s move '%s' is not a legal move in %s", opcode, text,
                      rec->fen);
            return -1;
        }
        if (count < max)
            moves[count++] = m;
    }
    return count;
}

/* Whether an operand must be quoted to read back as one operand. */
static bool needs_quotes(const char *s)
{
    if (!*s)
        return true;
    for (; *s; s++)
        if (isspace((unsigned char)*s) || *s == ';')
            return true;
    return false;
}

bool epd_format(const EpdRecord *rec, char *buf, size_t size)
{
    /* The position's first four fields; counters travel as hmvc/fmvn operations. */
    size_t used = 0;
    const char *f = rec->fen;
    for (int spaces = 0; *f && used + 1 < size; f++) {
        if (*f == ' ' && ++spaces == 4)
            break;
        buf[used++] = *f;
    }
    if (used + 1 >= size)
        return false;
    buf[used] = '\0';
    for (int i = 0; i < rec->operation_count; i++) {
        int n = snprintf(buf + used, size - used, " %s", epd_opcode(rec, i));
        if (n < 0 || (size_t)n >= size - used)
            return false;
        used += (size_t)n;
        for (int j = 0; j < epd_operand_count(rec, i); j++) {
            const char *operand = epd_operand(rec, i, j);
            if (strchr(operand, '"'))
                return false; /* EPD strings have no escape for a quote */
            n = snprintf(buf + used, size - used, needs_quotes(operand) ? " \"%s\"" : " %s",
                         operand);
            if (n < 0 || (size_t)n >= size - used)
                return false;
            used += (size_t)n;
        }
        if (used + 2 > size)
            return false;
        buf[used++] = ';';
        buf[used] = '\0';
    }
    return true;
}

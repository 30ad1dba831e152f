/* xboard edit mode (see xbedit.h). */
#include "protocol/xbedit.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "board/fen.h"

static const char PIECE_LETTERS[] = "PNBRQK";

void xbedit_begin(XbEdit *ed, const Position *pos)
{
    memset(ed->board, 0, sizeof ed->board);
    ed->color = WHITE;
    for (Square s = A1; s <= H8; s++) {
        Piece p = piece_on(pos, s);
        if (p == NO_PIECE)
            continue;
        char c = PIECE_LETTERS[type_of(p)];
        ed->board[s] = color_of(p) == WHITE ? c : (char)tolower((unsigned char)c);
    }
}

static int parse_square(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2])
        return -1;
    return make_square(s[0] - 'a', s[1] - '1');
}

bool xbedit_command(XbEdit *ed, const char *cmd)
{
    if (!strcmp(cmd, "c")) {
        ed->color ^= 1;
        return true;
    }
    if (!strcmp(cmd, "#")) {
        memset(ed->board, 0, sizeof ed->board);
        return true;
    }
    if (strlen(cmd) != 3)
        return false;
    int sq = parse_square(cmd + 1);
    if (sq < 0)
        return false;
    char letter = (char)toupper((unsigned char)cmd[0]);
    if (letter == 'X') {
        ed->board[sq] = '\0';
        return true;
    }
    if (!strchr(PIECE_LETTERS, letter))
        return false;
    ed->board[sq] = ed->color == WHITE ? letter : (char)tolower((unsigned char)letter);
    return true;
}

void xbedit_fen(const XbEdit *ed, Color side, char *fen, size_t size)
{
    char buf[128];
    fen_placement_from_squares(ed->board, buf);
    char castle[5];
    size_t k = 0;
    if (ed->board[E1] == 'K' && ed->board[H1] == 'R') castle[k++] = 'K';
    if (ed->board[E1] == 'K' && ed->board[A1] == 'R') castle[k++] = 'Q';
    if (ed->board[E8] == 'k' && ed->board[H8] == 'r') castle[k++] = 'k';
    if (ed->board[E8] == 'k' && ed->board[A8] == 'r') castle[k++] = 'q';
    if (!k)
        castle[k++] = '-';
    castle[k] = '\0';
    snprintf(fen, size, "%s %c %s - 0 1", buf, side == WHITE ? 'w' : 'b', castle);
}

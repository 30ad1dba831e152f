/* ECO recognizer: the compiled table, classification by position (transpositions), the
 * game rule (deepest classified position), take-backs. Expected codes are the ECO book's
 * (textbook lines), not copied from the table. */
#include <stdlib.h>
#include <string.h>

#include "board/notation.h"
#include "opening/eco.h"
#include "test.h"

static const EcoTable *table(void)
{
    char why[160];
    const EcoTable *t = eco_builtin(why, sizeof why);
    CHECK_MSG(t != NULL, "no ECO table: %s", why);
    return t;
}

/* Classification of a game given as SAN moves from the start; NULL if none. The code
 * goes to code (4 bytes: the three-character ECO code). */
static const EcoEntry *classify(const char *moves, char *code)
{
    const EcoTable *t = table();
    Position *pos = malloc(sizeof *pos);
    EcoGame *g = malloc(sizeof *g);
    char err[160], buf[512];
    strcpy(code, "-");
    if (!t || !pos || !g || !position_from_fen(pos, START_FEN, err, sizeof err, NULL)) {
        free(pos);
        free(g);
        return NULL;
    }
    eco_game_reset(g, t, pos_key(pos));
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        while (*w >= '0' && *w <= '9')
            w++; /* move numbers, glued to the move or not */
        while (*w == '.')
            w++;
        if (!*w)
            continue;
        Move m = move_from_san(pos, w);
        if (!CHECK_MSG(m != MOVE_NONE, "illegal move %s in %s", w, moves))
            break;
        make_move(pos, m);
        eco_game_push(g, pos_key(pos));
    }
    const EcoEntry *e = eco_entry(t, eco_game_best(g));
    if (e)
        snprintf(code, 4, "%.3s", e->code);
    free(pos);
    free(g);
    return e;
}

TEST(eco_table_is_sound)
{
    const EcoTable *t = table();
    if (!t)
        return;
    CHECK(t->count > 1000);
    CHECK(t->entry_count > 1000);
    for (size_t i = 1; i < t->count; i++)
        if (!CHECK_MSG(t->keys[i - 1] < t->keys[i], "keys not strictly sorted at %zu", i))
            return;
    for (size_t i = 0; i < t->count; i++) {
        int depth = -1;
        int e = eco_lookup(t, t->keys[i], &depth);
        if (!CHECK_MSG(e >= 0 && (size_t)e < t->entry_count && depth >= 0 && depth <= t->max_depth,
                       "key %zu: entry %d depth %d", i, e, depth))
            return;
    }
    for (size_t i = 0; i < t->entry_count; i++) {
        const char *c = t->entries[i].code;
        if (!CHECK_MSG(c[0] >= 'A' && c[0] <= 'E' && c[1] >= '0' && c[1] <= '9' && c[2] >= '0' && c[2] <= '9',
                       "entry %zu has code '%s'", i, c))
            return;
    }
    CHECK_EQ(eco_lookup(t, 0x123456789abcdefULL, NULL), ECO_NONE);
}

TEST(eco_two_move_orders_same_code)
{
    char a[4], b[4], c[4];
    const EcoEntry *ea = classify("1.d4 Nf6 2.c4 e6 3.Nf3 d5 4.Nc3", a);
    const EcoEntry *eb = classify("1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Nf3", b);
    const EcoEntry *ec = classify("1.c4 Nf6 2.Nc3 e6 3.Nf3 d5 4.d4", c);
    CHECK(ea != NULL);
    CHECK(ea == eb);
    CHECK(ea == ec);
    CHECK_STR_EQ(a, "D37");
}

TEST(eco_flank_opening_transposes_to_queens_gambit)
{
    char code[4];
    classify("1.Nf3 d5", code);
    CHECK(code[0] == 'A'); /* Reti so far */
    classify("1.Nf3 d5 2.c4 e6 3.d4 Nf6 4.Nc3", code);
    CHECK_STR_EQ(code, "D37");
    classify("1.c4 e6 2.Nc3 d5 3.d4", code); /* English into the Queen's Gambit Declined */
    CHECK_STR_EQ(code, "D31");
    classify("1.c4 Nf6 2.Nc3 e6 3.d4 Bb4", code); /* English into the Nimzo-Indian */
    CHECK_STR_EQ(code, "E20");
}

TEST(eco_known_lines)
{
    static const struct {
        const char *moves, *code;
    } CASES[] = {
        {"1.e4 e5 2.Nf3 Nc6 3.Bb5 Nf6 4.O-O Nxe4 5.d4 Nd6 6.Bxc6 dxc6 7.dxe5 Nf5 8.Qxd8+ Kxd8", "C67"},
        {"1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Be3 e5", "B90"},
        {"1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Qc2 O-O 5.a3 Bxc3+ 6.Qxc3", "E32"},
        {"1.d4 Nf6 2.c4 g6 3.Nc3 Bg7 4.e4 d6 5.Nf3 O-O 6.Be2 e5 7.O-O Nc6 8.d5 Ne7", "E97"},
        {"1.e4 c6 2.d4 d5 3.e5 Bf5", "B12"},
        {"1.d4 Nf6 2.c4 g6 3.Nc3 d5 4.cxd5 Nxd5 5.e4 Nxc3 6.bxc3 Bg7", "D85"},
        {"1.d4 d5 2.c4 c6 3.Nf3 Nf6 4.Nc3 dxc4 5.a4 Bf5", "D17"},
        {"1.e4 e6 2.d4 d5 3.Nc3 Bb4 4.e5 c5 5.a3 Bxc3+ 6.bxc3 Ne7", "C18"},
        {"1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.c3 Nf6 5.d4", "C54"},
        {"1.c4 e5", "A20"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        char code[4];
        classify(CASES[i].moves, code);
        CHECK_MSG(!strcmp(code, CASES[i].code), "%s: got %s, want %s", CASES[i].moves, code, CASES[i].code);
    }
}

/* Leaving the known positions keeps the deepest one; re-entering a deeper one takes it;
 * take-backs restore the classification as it was. */
TEST(eco_game_rule_and_takebacks)
{
    const EcoTable *t = table();
    Position *pos = malloc(sizeof *pos);
    EcoGame *g = malloc(sizeof *g);
    char err[160];
    if (!t || !pos || !g || !position_from_fen(pos, START_FEN, err, sizeof err, NULL)) {
        free(pos);
        free(g);
        return;
    }
    eco_game_reset(g, t, pos_key(pos));
    CHECK_EQ(eco_game_current(g), ECO_NONE);
    static const char *const NAJDORF_LINE[] = {"e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6",
                                       "Be3", "e5", "Nb3", "Be6", "f3", "Be7", "Qd2", "O-O", "O-O-O", "Nbd7",
                                       "g4", "b5", "g5", "b4", "Ne2", "Ne8", "h4", "a5", "Kb1", "a4"};
    int best_at[32];
    int n = (int)(sizeof NAJDORF_LINE / sizeof *NAJDORF_LINE);
    for (int i = 0; i < n; i++) {
        Move m = move_from_san(pos, NAJDORF_LINE[i]);
        if (!CHECK_MSG(m != MOVE_NONE, "move %s", NAJDORF_LINE[i]))
            break;
        make_move(pos, m);
        eco_game_push(g, pos_key(pos));
        best_at[i] = eco_game_best(g);
    }
    CHECK_EQ(eco_game_current(g), ECO_NONE); /* out of book by now */
    const EcoEntry *najdorf = eco_entry(t, best_at[9]);
    CHECK(najdorf && !strncmp(najdorf->code, "B9", 2));
    CHECK(eco_game_best(g) != ECO_NONE);
    int depth = -1;
    CHECK(eco_lookup(t, t->keys[0], &depth) != ECO_NONE);
    for (int i = n - 1; i > 9; i--) {
        eco_game_pop(g);
        CHECK_EQ(eco_game_best(g), best_at[i - 1]);
    }
    /* A position the game never reached through known ones still counts when reached. */
    eco_game_reset(g, t, pos_key(pos));
    CHECK_EQ(eco_game_best(g), ECO_NONE);
    free(pos);
    free(g);
}

TEST(eco_split_names)
{
    char o[64], v[64];
    eco_split_name("Queen's Gambit Declined: Three Knights Variation, Vienna", o, sizeof o, v, sizeof v);
    CHECK_STR_EQ(o, "Queen's Gambit Declined");
    CHECK_STR_EQ(v, "Three Knights Variation, Vienna");
    eco_split_name("Sicilian Defense, Grand Prix Attack", o, sizeof o, v, sizeof v);
    CHECK_STR_EQ(o, "Sicilian Defense");
    CHECK_STR_EQ(v, "Grand Prix Attack");
    eco_split_name("Amar Opening", o, sizeof o, v, sizeof v);
    CHECK_STR_EQ(o, "Amar Opening");
    CHECK_STR_EQ(v, "");
}

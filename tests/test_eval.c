/* Evaluation tests: colour-flip symmetry over every EPD suite position (and the positions
 * one move later), pawn hash against no cache, endgame knowledge and scaling, a few
 * ordering checks that follow from chess knowledge rather than from the code. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/endgame.h"
#include "eval/evaluate.h"
#include "board/movegen.h"
#include "util/writer.h"
#include "test.h"

/* Writes the FEN of pos with colours swapped and the board flipped top to bottom. */
static void mirror_fen(const Position *pos, char *buf)
{
    static const char CH[] = "PNBRQK  pnbrqk";
    char *p = buf;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            Piece pc = piece_on(pos, make_square(f, 7 - r)); /* rank r of the mirror */
            if (pc == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty), empty = 0;
            *p++ = CH[make_piece(!color_of(pc), type_of(pc))];
        }
        if (empty)
            *p++ = (char)('0' + empty);
        if (r)
            *p++ = '/';
    }
    *p++ = ' ';
    *p++ = pos->side == WHITE ? 'b' : 'w';
    *p++ = ' ';
    int cr = castling_rights(pos);
    if (cr & BLACK_OO) *p++ = 'K';
    if (cr & BLACK_OOO) *p++ = 'Q';
    if (cr & WHITE_OO) *p++ = 'k';
    if (cr & WHITE_OOO) *p++ = 'q';
    if (!cr)
        *p++ = '-';
    *p++ = ' ';
    Square ep = ep_square(pos);
    if (ep == NO_SQUARE) {
        *p++ = '-';
    } else {
        *p++ = (char)('a' + file_of(ep));
        *p++ = (char)('1' + (7 - rank_of(ep)));
    }
    sprintf(p, " %d 1", rule50_count(pos));
}

static bool load(Position *pos, const char *fen)
{
    char err[160];
    return CHECK_MSG(position_from_fen(pos, fen, err, sizeof err, NULL), "%s: %s", fen, err);
}

static int eval_fen(const char *fen)
{
    static Position pos;
    if (!load(&pos, fen))
        return 0x7FFF;
    return evaluate(&pos, NULL);
}

/* Checks symmetry and cache consistency of one position; returns false on a failure. */
static bool check_position(const Position *pos, PawnTable *table, const char *where)
{
    static Position mirror;
    char fen[128], mfen[128], err[160];
    mirror_fen(pos, mfen);
    position_to_fen(pos, fen);
    if (!CHECK_MSG(position_from_fen(&mirror, mfen, err, sizeof err, NULL), "%s: mirror %s: %s", where, mfen, err))
        return false;
    int v = evaluate(pos, NULL);
    int vm = evaluate(&mirror, NULL);
    int vc = evaluate(pos, table), vc2 = evaluate(pos, table), vmc = evaluate(&mirror, table);
    bool ok = CHECK_MSG(v == vm, "%s: %s evaluates %d, its mirror %s %d", where, fen, v, mfen, vm);
    ok &= CHECK_MSG(v == vc && v == vc2 && vm == vmc, "%s: %s: %d without cache, %d/%d with", where, fen, v, vc, vc2);
    ok &= CHECK_MSG(v > -EVAL_MAX - 1 && v < EVAL_MAX + 1, "%s: %s out of range: %d", where, fen, v);
    return ok;
}

/* The first four fields of an EPD line plus neutral counters; false for a blank line. */
static bool epd_position_fields(const char *line, char *fen, size_t size)
{
    char f[4][100];
    if (sscanf(line, "%99s %99s %99s %99s", f[0], f[1], f[2], f[3]) != 4)
        return false;
    snprintf(fen, size, "%s %s %s %s 0 1", f[0], f[1], f[2], f[3]);
    return true;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

TEST(eval_mirror_symmetry_epd_suites)
{
    eval_init();
    char dir_path[512];
    test_data_path("epd", dir_path, sizeof dir_path);
    DIR *dir = opendir(dir_path);
    if (!CHECK_MSG(dir != NULL, "cannot open %s", dir_path))
        return;
    char *names[64];
    int n_files = 0;
    struct dirent *de;
    while ((de = readdir(dir)) && n_files < 64) {
        size_t len = strlen(de->d_name);
        if (len > 4 && !strcmp(de->d_name + len - 4, ".epd"))
            names[n_files++] = strdup(de->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)n_files, sizeof names[0], compare_names);
    CHECK_MSG(n_files >= 8, "expected the 8 EPD suites in %s, found %d", dir_path, n_files);

    PawnTable *table = pawn_table_new();
    static Position pos;
    int positions = 0, failures = 0;
    for (int i = 0; i < n_files; i++) {
        char path[640], line[1024], where[700];
        snprintf(path, sizeof path, "%s/%s", dir_path, names[i]);
        FILE *f = fopen(path, "r");
        if (!CHECK_MSG(f != NULL, "cannot open %s", path))
            continue;
        int lineno = 0, in_file = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            char err[160], fen[512];
            if (!epd_position_fields(line, fen, sizeof fen))
                continue;
            if (!CHECK_MSG(position_from_fen(&pos, fen, err, sizeof err, NULL), "%s:%d: %s", path, lineno, err))
                continue;
            snprintf(where, sizeof where, "%s:%d", names[i], lineno);
            in_file++;
            positions++;
            if (!check_position(&pos, table, where) && ++failures > 10)
                break;
            /* One ply further: other sides to move, captures, promotions, checks. */
            MoveList list;
            generate_legal(&pos, &list);
            for (int m = 0; m < list.count && failures <= 10; m++) {
                make_move(&pos, list.moves[m]);
                positions++;
                if (!check_position(&pos, table, where))
                    failures++;
                unmake_move(&pos, list.moves[m]);
            }
        }
        fclose(f);
        CHECK_MSG(in_file > 0, "%s holds no position", path);
        test_log("%s: %d records", names[i], in_file);
    }
    test_log("%d positions checked", positions);
    CHECK(positions > 50000);
    for (int i = 0; i < n_files; i++)
        free(names[i]);
    pawn_table_free(table);
}

TEST(eval_mirror_helper_is_an_involution)
{
    /* The helper itself must be right, or the symmetry test proves nothing. */
    static Position pos, m1, m2;
    const char *fen = "r3k2r/pp3ppp/2n1p3/3pP3/3P4/2N2N2/PPP2PPP/R3K2R w KQkq d6 0 12";
    char a[128], b[128], orig[128], err[160];
    if (!load(&pos, fen))
        return;
    mirror_fen(&pos, a);
    CHECK_STR_EQ(a, "r3k2r/ppp2ppp/2n2n2/3p4/3Pp3/2N1P3/PP3PPP/R3K2R b KQkq d3 0 1");
    if (!CHECK(position_from_fen(&m1, a, err, sizeof err, NULL)))
        return;
    mirror_fen(&m1, b);
    if (!CHECK(position_from_fen(&m2, b, err, sizeof err, NULL)))
        return;
    position_to_fen(&pos, orig);
    position_to_fen(&m2, a);
    CHECK_STR_EQ(strtok(a, " "), strtok(orig, " ")); /* same placement after two flips */
}

/* eval_print's text in buf (size bytes); false when it could not be captured. */
static bool print_breakdown(const Position *pos, char *buf, size_t size)
{
    FILE *f = tmpfile();
    if (!f)
        return false;
    Writer out;
    writer_init(&out, f, NULL);
    eval_print(pos, &out);
    writer_destroy(&out);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n > 0;
}

/* One colour's middlegame value of a term, read from eval_print's table (centipawns). */
static int term_mg(const char *fen, const char *term, Color c)
{
    static Position pos;
    char buf[8192] = "";
    if (!load(&pos, fen))
        return 0;
    if (!print_breakdown(&pos, buf, sizeof buf))
        return 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        double v[6];
        char *bar = strchr(line, '|');
        if (!bar || strncmp(line + strspn(line, " "), term, strlen(term)))
            continue;
        if (sscanf(bar, "| %lf %lf | %lf %lf | %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) == 6)
            return (int)(v[c == WHITE ? 0 : 2] * 100 + (v[c == WHITE ? 0 : 2] < 0 ? -0.5 : 0.5));
    }
    CHECK_MSG(false, "no %s line for %s", term, fen);
    return 0;
}

TEST(eval_start_position_and_basic_judgement)
{
    eval_init();
    int start = eval_fen(START_FEN);
    CHECK_MSG(start > 0 && start < 40, "start position: %d", start);
    CHECK_EQ(eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"), start);
    /* A knight up (White's b1 knight removed from Black's view). */
    CHECK(eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1") > 200);
    CHECK(eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1") < -200);
    /* A far-advanced passed pawn is worth more than the same pawn at home. */
    int adv = eval_fen("6k1/5n2/1P6/8/8/8/8/4N1K1 w - - 0 1");
    int home = eval_fen("6k1/5n2/8/8/8/8/1P6/4N1K1 w - - 0 1");
    CHECK_MSG(adv > home + 50, "b6 pawn %d vs b2 pawn %d", adv, home);
    /* Doubled isolated pawns are worse than a connected pair. */
    int doubled = eval_fen("6k1/8/8/8/8/2P5/2P5/6K1 w - - 0 1");
    int connected = eval_fen("6k1/8/8/8/8/8/2PP4/6K1 w - - 0 1");
    CHECK_MSG(connected > doubled + 20, "connected %d vs doubled %d", connected, doubled);
    /* Castled king with intact shelter beats a king stripped of it (by how much is the
     * tuner's business: the pushed pawn gains space too). */
    int shelter = eval_fen("r2q1rk1/5ppp/8/8/8/8/5PPP/R2Q1RK1 w - - 0 1");
    int naked = eval_fen("r2q1rk1/5ppp/8/8/6P1/8/5P1P/R2Q1RK1 w - - 0 1");
    CHECK_MSG(shelter > naked, "shelter %d vs g4 %d", shelter, naked);
    /* Pieces swarming around the king: Black's king-safety term drops. */
    int attacked = term_mg("rnb2rk1/ppp2ppp/3q4/6NQ/8/3B4/PPP2PPP/R4RK1 b - - 0 1", "King safety", BLACK);
    int quiet = term_mg("rnb2rk1/ppp2ppp/3q4/8/8/2NB4/PPP2PPP/R2Q1RK1 b - - 0 1", "King safety", BLACK);
    CHECK_MSG(attacked < quiet - 20, "black king safety under attack %d vs quiet %d", attacked, quiet);
}

TEST(eval_pawn_table_matches_no_cache)
{
    eval_init();
    /* Random games: every position evaluated with a small table (many collisions and
     * replacements), the same table again, and without cache. */
    PawnTable *table = pawn_table_new();
    static Position pos;
    uint64_t seed = 12345;
    int checked = 0;
    for (int game = 0; game < 40; game++) {
        if (!load(&pos, START_FEN))
            break;
        for (int ply = 0; ply < 120; ply++) {
            MoveList list;
            generate_legal(&pos, &list);
            if (!list.count)
                break;
            int v = evaluate(&pos, NULL), a = evaluate(&pos, table), b = evaluate(&pos, table);
            if (!CHECK_MSG(v == a && v == b, "game %d ply %d: %d vs cached %d, %d", game, ply, v, a, b))
                break;
            checked++;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            make_move(&pos, list.moves[(seed >> 33) % (uint64_t)list.count]);
            if (pos.st_index > MAX_STATES - 8)
                break;
        }
    }
    pawn_table_clear(table);
    CHECK_EQ(evaluate(&pos, table), evaluate(&pos, NULL));
    CHECK(checked > 1000);
    pawn_table_free(table);
}

TEST(eval_insufficient_material_is_zero)
{
    eval_init();
    const char *draws[] = {
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1",
        "8/8/4k3/8/8/3K4/8/6N1 b - - 0 1",
        "8/8/4k3/8/8/3K4/8/5B2 w - - 0 1",
        "8/8/4k3/8/8/3K4/8/4NN2 w - - 0 1",
        "8/8/4kb2/8/8/3K4/8/5B2 w - - 0 1",    /* bishops on one colour */
        "8/8/4kn2/8/8/3K4/8/5B2 w - - 0 1",    /* minor against minor */
    };
    for (int i = 0; i < 7; i++)
        CHECK_MSG(eval_fen(draws[i]) == 0, "%s: %d", draws[i], eval_fen(draws[i]));
    /* Wrong-coloured bishop with a rook pawn and the king in the corner: dead draw; the
     * right bishop (or the king far away) wins. */
    CHECK_EQ(eval_fen("k7/8/8/P7/8/8/1B6/K7 w - - 0 1"), 0);
    CHECK_EQ(eval_fen("1k6/8/8/P7/8/8/1B6/K7 b - - 0 1"), 0);
    CHECK(eval_fen("k7/8/8/P7/8/8/2B5/K7 w - - 0 1") > 200);
    CHECK(eval_fen("8/8/4k3/8/P7/3K4/1B6/8 w - - 0 1") > 200);
    /* Rook pawns alone, the defending king in front of them. */
    CHECK_EQ(eval_fen("k7/8/8/P7/P7/8/8/K7 w - - 0 1"), 0);
    CHECK(eval_fen("7k/8/8/P7/P7/8/8/K7 w - - 0 1") > 200);
    /* Rook against minor without pawns: drawish, far below the material difference, and
     * never a minus for the rook. */
    int krkb = eval_fen("8/8/4kb2/8/8/3K4/8/5R2 w - - 0 1");
    CHECK_MSG(krkb >= 0 && krkb < 60, "KRKB %d", krkb);
}

TEST(eval_opposite_bishops_scale_down)
{
    eval_init();
    int ocb = eval_fen("8/4kb2/6p1/5p2/5P2/2B3PP/5K2/8 w - - 0 1");
    int same = eval_fen("8/4k3/3b2p1/5p2/5P2/2B3PP/5K2/8 w - - 0 1");
    CHECK_MSG(ocb > 0 && ocb * 2 < same, "opposite bishops %d, same colour %d", ocb, same);
}

/* KQK, KRK, KBNK: a known win that grows as the defending king goes to the (right)
 * corner, the attacking king staying at distance 2. */
TEST(eval_mating_gradients)
{
    eval_init();
    const char *kqk[] = { "8/8/8/4k3/8/4K3/8/1Q6 w - - 0 1", "4k3/8/4K3/8/8/8/8/1Q6 w - - 0 1",
                          "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1" };
    const char *krk[] = { "8/8/8/4k3/8/4K3/8/R7 w - - 0 1", "4k3/8/4K3/8/8/8/8/R7 w - - 0 1",
                          "7k/8/6K1/8/8/8/8/R7 w - - 0 1" };
    for (int i = 0; i < 3; i++) {
        int q = eval_fen(kqk[i]), r = eval_fen(krk[i]);
        CHECK_MSG(q > EVAL_KNOWN_WIN && r > EVAL_KNOWN_WIN, "%s %d, %s %d", kqk[i], q, krk[i], r);
        CHECK_MSG(q > r, "KQK %d should beat KRK %d", q, r);
        if (i > 0) {
            CHECK_MSG(q > eval_fen(kqk[i - 1]), "KQK %s not better than %s", kqk[i], kqk[i - 1]);
            CHECK_MSG(r > eval_fen(krk[i - 1]), "KRK %s not better than %s", krk[i], krk[i - 1]);
        }
    }
    /* From the defender's side to move the sign flips. */
    CHECK(eval_fen("4k3/8/4K3/8/8/8/8/R7 b - - 0 1") < -EVAL_KNOWN_WIN);

    /* KBNK with a dark-squared bishop (c1): a1 and h8 mate, a8 and h1 do not. */
    int centre = eval_fen("8/8/8/4k3/8/4K3/8/2B1N3 w - - 0 1");
    int wrong = eval_fen("k7/8/2K5/8/8/8/8/2B1N3 w - - 0 1");
    int right = eval_fen("7k/8/5K2/8/8/8/8/2B1N3 w - - 0 1");
    CHECK_MSG(centre > EVAL_KNOWN_WIN, "KBNK centre %d", centre);
    CHECK_MSG(centre < wrong && wrong < right, "KBNK centre %d, wrong corner %d, right corner %d", centre, wrong, right);
    /* Same with a light-squared bishop (d1): now a8 is right. */
    int light_right = eval_fen("k7/8/2K5/8/8/8/8/3BN3 w - - 0 1");
    int light_wrong = eval_fen("7k/8/5K2/8/8/8/8/3BN3 w - - 0 1");
    CHECK_MSG(light_right > light_wrong, "light bishop: a8 %d vs h8 %d", light_right, light_wrong);
    /* Black mating: symmetric. */
    CHECK_EQ(eval_fen("2b1n3/8/8/8/8/5k2/8/7K b - - 0 1"), right);
}

TEST(eval_print_breakdown)
{
    eval_init();
    static Position pos;
    if (!load(&pos, "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 6"))
        return;
    char buf[8192] = "";
    if (!CHECK(print_breakdown(&pos, buf, sizeof buf)))
        return;
    const char *terms[] = { "Material", "Piece-square", "Mobility", "King safety", "Threats",
                            "Passed pawns", "Tempo", "Phase:", "scale factor", "Final evaluation" };
    for (int i = 0; i < 10; i++)
        CHECK_MSG(strstr(buf, terms[i]) != NULL, "eval_print lacks \"%s\"", terms[i]);
    /* The printed side-to-move value is evaluate()'s. */
    char expect[32];
    snprintf(expect, sizeof expect, "%+.2f (side to move)", evaluate(&pos, NULL) / 100.0);
    CHECK_MSG(strstr(buf, expect) != NULL, "eval_print lacks \"%s\":\n%s", expect, buf);
}

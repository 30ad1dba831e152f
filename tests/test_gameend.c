/* Result claims from the board and the resign/draw policy. */
#include <string.h>

#include "board/gameend.h"
#include "engine/resign_draw.h"
#include "board/notation.h"
#include "test.h"

static bool setup(Position *pos, const char *fen)
{
    char err[160];
    return CHECK_MSG(position_from_fen(pos, fen, err, sizeof err, NULL), "%s: %s", fen, err);
}

static void play(Position *pos, const char *uci_moves)
{
    char buf[16];
    const char *p = uci_moves;
    while (*p) {
        int n = 0;
        while (p[n] && p[n] != ' ' && n < 15)
            buf[n] = p[n], n++;
        buf[n] = '\0';
        p += n;
        while (*p == ' ')
            p++;
        Move m = move_from_uci(pos, buf);
        if (!CHECK_MSG(m != MOVE_NONE, "illegal move %s", buf))
            return;
        make_move(pos, m);
    }
}

TEST(gameend_mate_and_stalemate)
{
    static Position pos;
    if (setup(&pos, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"))
        CHECK_EQ(game_end_status(&pos), GAME_BLACK_MATES);
    CHECK_STR_EQ(game_end_result(GAME_BLACK_MATES), "0-1 {Black mates}");
    if (setup(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"))
        CHECK_EQ(game_end_status(&pos), GAME_STALEMATE);
    if (setup(&pos, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")) {
        CHECK_EQ(game_end_status(&pos), GAME_ONGOING);
        play(&pos, "a1a8");
        CHECK_EQ(game_end_status(&pos), GAME_WHITE_MATES);
    }
    CHECK(game_end_result(GAME_ONGOING) == NULL);
}

TEST(gameend_draw_rules)
{
    static Position pos;
    if (setup(&pos, START_FEN)) {
        play(&pos, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        CHECK_EQ(game_end_status(&pos), GAME_ONGOING);
        play(&pos, "f6g8");
        CHECK_EQ(game_end_status(&pos), GAME_REPETITION);
    }
    if (setup(&pos, "8/8/4k3/8/8/3K4/8/7r w - - 99 80")) {
        CHECK_EQ(game_end_status(&pos), GAME_ONGOING);
        play(&pos, "d3d4");
        CHECK_EQ(game_end_status(&pos), GAME_FIFTY_MOVES);
    }
    /* Mate on the hundredth half-move stands. */
    if (setup(&pos, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")) {
        play(&pos, "a1a8");
        CHECK_EQ(game_end_status(&pos), GAME_WHITE_MATES);
    }
    if (setup(&pos, "8/8/4k3/8/8/3KN3/8/8 b - - 0 1"))
        CHECK_EQ(game_end_status(&pos), GAME_INSUFFICIENT_MATERIAL);
    if (setup(&pos, "8/8/4k3/8/8/3KNN2/8/8 b - - 0 1"))
        CHECK_EQ(game_end_status(&pos), GAME_ONGOING);
}

TEST(manners_resign_only_when_enabled_and_sustained)
{
    MannersConfig cfg = {.resign_threshold = 0, .resign_moves = 3, .draw_offers = false};
    MannersState st;
    manners_reset(&st);
    for (int i = 0; i < 10; i++)
        manners_record(&st, -2000);
    CHECK(!manners_should_resign(&st, &cfg));   /* off by default */
    cfg.resign_threshold = 600;
    CHECK(manners_should_resign(&st, &cfg));
    manners_reset(&st);
    manners_record(&st, -700);
    manners_record(&st, -100);
    manners_record(&st, -700);
    manners_record(&st, -700);
    CHECK(!manners_should_resign(&st, &cfg));   /* only two in a row */
    manners_record(&st, -30000);
    CHECK(manners_should_resign(&st, &cfg));
}

TEST(manners_draw_offer_and_accept)
{
    static Position pos;
    MannersConfig cfg = {.draw_offers = true, .draw_contempt = 0};
    MannersState st;
    manners_reset(&st);
    if (!setup(&pos, "8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 45"))
        return;
    for (int i = 0; i < 7; i++)
        manners_record(&st, (i & 1) ? 5 : -5);
    CHECK(!manners_offer_draw(&st, &cfg, &pos));  /* not yet long enough */
    manners_record(&st, 0);
    CHECK(manners_offer_draw(&st, &cfg, &pos));
    CHECK(!manners_offer_draw(&st, &cfg, &pos));  /* not again right away */
    CHECK(manners_accept_draw(&st, &cfg, &pos));
    manners_record(&st, 150);
    CHECK(!manners_accept_draw(&st, &cfg, &pos)); /* we are better: play on */
    cfg.draw_offers = false;
    manners_record(&st, -300);
    manners_record(&st, -300);
    CHECK(!manners_accept_draw(&st, &cfg, &pos));
    cfg.draw_offers = true;
    CHECK(manners_accept_draw(&st, &cfg, &pos));
    /* Early in the game with full material: no draws. */
    if (setup(&pos, START_FEN))
        CHECK(!manners_accept_draw(&st, &cfg, &pos));
}

/* xboard time controls and edit mode: level parsing, repeating sessions, st/sd/nps, the
 * time commands, edit-mode boards to FEN. */
#include <string.h>

#include "test.h"
#include "protocol/xbedit.h"
#include "protocol/xbtime.h"

TEST(xbtime_level_parsing)
{
    XbClock c;
    char err[160];
    xbclock_init(&c);
    CHECK(xbclock_level(&c, "40", "5", "0", err, sizeof err));
    CHECK_EQ(c.mps, 40);
    CHECK_EQ(c.base_ms, 300000);
    CHECK_EQ(c.inc_ms, 0);
    CHECK(xbclock_level(&c, "0", "0:30", "0.5", err, sizeof err));
    CHECK_EQ(c.mps, 0);
    CHECK_EQ(c.base_ms, 30000);
    CHECK_EQ(c.inc_ms, 500);
    CHECK(xbclock_level(&c, "0", "2", "12", err, sizeof err));
    CHECK_EQ(c.base_ms, 120000);
    CHECK_EQ(c.inc_ms, 12000);
    /* Reserved characters after the base time are ignored. */
    CHECK(xbclock_level(&c, "40", "25+5", "0", err, sizeof err));
    CHECK_EQ(c.base_ms, 25 * 60000);
    /* Bad input leaves the control as it was. */
    CHECK(!xbclock_level(&c, "x", "5", "0", err, sizeof err));
    CHECK(!xbclock_level(&c, "40", "five", "0", err, sizeof err));
    CHECK(!xbclock_level(&c, "40", "5", "-1", err, sizeof err));
    CHECK(!xbclock_level(&c, "-3", "5", "0", err, sizeof err));
    CHECK_EQ(c.mps, 40);
    CHECK_EQ(c.base_ms, 25 * 60000);
}

TEST(xbtime_repeating_session)
{
    XbClock c;
    char err[160];
    xbclock_init(&c);
    xbclock_level(&c, "40", "5", "0", err, sizeof err);
    CHECK_EQ(xbclock_moves_to_go(&c, 0), 40);
    CHECK_EQ(xbclock_moves_to_go(&c, 39), 1);
    CHECK_EQ(xbclock_moves_to_go(&c, 40), 40);
    CHECK_EQ(xbclock_moves_to_go(&c, 85), 35);
    xbclock_level(&c, "0", "5", "3", err, sizeof err);
    CHECK_EQ(xbclock_moves_to_go(&c, 12), 0);

    SearchLimits lim;
    xbclock_level(&c, "40", "5", "0", err, sizeof err);
    c.my_ms = 120000;
    c.opp_ms = 90000;
    xbclock_limits(&c, BLACK, 41, &lim);
    CHECK_EQ(lim.time[BLACK], 120000);
    CHECK_EQ(lim.time[WHITE], 90000);
    CHECK_EQ(lim.movestogo, 39);
    CHECK_EQ(lim.movetime, 0);
    CHECK_EQ(lim.depth, 0);
}

TEST(xbtime_st_sd_nps)
{
    XbClock c;
    SearchLimits lim;
    xbclock_init(&c);
    c.st_ms = 2500;
    c.sd = 7;
    xbclock_limits(&c, WHITE, 0, &lim);
    CHECK_EQ(lim.movetime, 2500);
    CHECK_EQ(lim.depth, 7);
    CHECK_EQ(lim.time[WHITE], -1);
    /* Node-based time: st 8 at 10000 nps is at most 80000 nodes, no clock. */
    c.st_ms = 8000;
    c.nps = 10000;
    xbclock_limits(&c, WHITE, 0, &lim);
    CHECK_EQ(lim.nodes, 80000);
    CHECK_EQ(lim.movetime, 0);
    CHECK(!limits_use_time(&lim));
    xbclock_new_game(&c);
    CHECK_EQ(c.sd, 0);
    CHECK_EQ(c.nps, 0);
    CHECK_EQ(c.st_ms, 8000);
}

TEST(xbtime_commands)
{
    XbClock c;
    char err[160];
    xbclock_init(&c);
    CHECK(xbclock_is_command("otim"));
    CHECK(!xbclock_is_command("ping"));
    CHECK(xbclock_command(&c, "st", "2.5", "", "", err, sizeof err));
    CHECK_EQ(c.st_ms, 2500);
    CHECK(!xbclock_command(&c, "st", "0", "", "", err, sizeof err));
    CHECK_STR_EQ(err, "bad time per move");
    CHECK_EQ(c.st_ms, 2500);
    /* level clears st; a level without its three arguments is refused. */
    CHECK(!xbclock_command(&c, "level", "40", "5", "", err, sizeof err));
    CHECK_STR_EQ(err, "level needs MPS BASE INC");
    CHECK(xbclock_command(&c, "level", "40", "5", "0", err, sizeof err));
    CHECK_EQ(c.st_ms, 0);
    /* sd is cut below MAX_PLY, nps to a billion; both must be whole and not negative. */
    CHECK(xbclock_command(&c, "sd", "1000", "", "", err, sizeof err));
    CHECK_EQ(c.sd, MAX_PLY - 1);
    CHECK(!xbclock_command(&c, "sd", "-1", "", "", err, sizeof err));
    CHECK(!xbclock_command(&c, "nps", "12k", "", "", err, sizeof err));
    CHECK_STR_EQ(err, "bad number");
    CHECK(xbclock_command(&c, "nps", "99999999999", "", "", err, sizeof err));
    CHECK_EQ(c.nps, 1000000000);
    /* time and otim are centiseconds; a negative clock counts as 0. */
    CHECK(xbclock_command(&c, "time", "1234", "", "", err, sizeof err));
    CHECK_EQ(c.my_ms, 12340);
    CHECK(xbclock_command(&c, "otim", "-50", "", "", err, sizeof err));
    CHECK_EQ(c.opp_ms, 0);
    /* After our move the clock loses the time used and gains the increment. */
    c.inc_ms = 1000;
    xbclock_after_move(&c, 3000);
    CHECK_EQ(c.my_ms, 10340);
    xbclock_after_move(&c, 20000);
    CHECK_EQ(c.my_ms, 0);
    c.my_ms = -1; /* unknown stays unknown */
    xbclock_after_move(&c, 100);
    CHECK_EQ(c.my_ms, -1);
}

TEST(xbedit_board_to_fen)
{
    static Position pos;
    char err[160], fen[128];
    if (!CHECK(position_from_fen(&pos, START_FEN, err, sizeof err, NULL)))
        return;
    XbEdit ed;
    xbedit_begin(&ed, &pos);
    xbedit_fen(&ed, WHITE, fen, sizeof fen);
    CHECK_STR_EQ(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(xbedit_command(&ed, "#"));
    CHECK(xbedit_command(&ed, "Ke1"));
    CHECK(xbedit_command(&ed, "Rh1"));
    CHECK(xbedit_command(&ed, "Pe4"));
    CHECK(xbedit_command(&ed, "c"));
    CHECK(xbedit_command(&ed, "Kg8"));
    CHECK(xbedit_command(&ed, "Ra8"));
    CHECK(xbedit_command(&ed, "Qd5"));
    CHECK(xbedit_command(&ed, "xd5"));
    CHECK(!xbedit_command(&ed, "Zd5"));
    CHECK(!xbedit_command(&ed, "Ki9"));
    xbedit_fen(&ed, BLACK, fen, sizeof fen);
    /* Black's king is not on e8: no black castling; white keeps the short side. */
    CHECK_STR_EQ(fen, "r5k1/8/8/8/4P3/8/8/4K2R b K - 0 1");
}

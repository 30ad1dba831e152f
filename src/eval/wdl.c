/* Win/draw/loss model: see wdl.h. The form is Stockfish's: with t = material / 58,
 * win = 1 / (1 + exp((a - cp) / b)) and loss = 1 / (1 + exp((a + cp) / b)), the draw the
 * rest, where a and b grow with the material (a score means less with queens on). */
#include "eval/wdl.h"

#include <math.h>

/* tools/programs/wdlfit on 189,069 positions of 30,572 master games (docs/search.md). */
const double WDL_MODEL[4] = { 122.0, 35.7, 53.8, 111.4 };

int wdl_material(const Position *pos)
{
    return popcount(pos->by_type[PAWN]) + 3 * popcount(pos->by_type[KNIGHT] | pos->by_type[BISHOP])
         + 5 * popcount(pos->by_type[ROOK]) + 9 * popcount(pos->by_type[QUEEN]);
}

Wdl wdl_from_cp(int cp, int material)
{
    /* The fit saw material 17..78 and scores within +-2000. */
    double t = (material < 17 ? 17 : material > 78 ? 78 : material) / 58.0;
    double x = cp < -2000 ? -2000 : cp > 2000 ? 2000 : cp;
    double a = WDL_MODEL[0] + WDL_MODEL[1] * t, b = WDL_MODEL[2] + WDL_MODEL[3] * t;
    int win = (int)lround(1000 / (1 + exp((a - x) / b)));
    int loss = (int)lround(1000 / (1 + exp((a + x) / b)));
    if (win + loss > 1000)
        loss = 1000 - win;
    return (Wdl){ win, 1000 - win - loss, loss };
}

Wdl wdl_from_mate(int moves)
{
    return moves > 0 ? (Wdl){ 1000, 0, 0 } : (Wdl){ 0, 0, 1000 };
}

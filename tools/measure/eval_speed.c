/* Evaluation speed: evaluations per second over the positions of EPD files and every
 * position one legal move later, with a warm pawn hash table (as in a search) and with
 * none (every pawn structure recomputed).
 *
 * Built by `make tools`; from the repository root:
 *   build/native/tools/eval_speed tests/data/epd/[a-z]*.epd
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/evaluate.h"
#include "board/movegen.h"
#include "util/timeutil.h"

#define MAX_POSITIONS 200000
#define ROUNDS 10

/* What evaluate() reads of a position, small enough to keep 100k of them. */
typedef struct {
    Bitboard by_type[PIECE_TYPE_NB], by_color[COLOR_NB];
    uint8_t board[SQUARE_NB];
    Color side;
    StateInfo st;
} Snapshot;

static void restore(Position *pos, const Snapshot *s)
{
    memcpy(pos->by_type, s->by_type, sizeof s->by_type);
    memcpy(pos->by_color, s->by_color, sizeof s->by_color);
    memcpy(pos->board, s->board, sizeof s->board);
    pos->side = s->side;
    pos->st_index = 0;
    pos->states[0] = s->st;
}

static void save(const Position *pos, Snapshot *s)
{
    memcpy(s->by_type, pos->by_type, sizeof s->by_type);
    memcpy(s->by_color, pos->by_color, sizeof s->by_color);
    memcpy(s->board, pos->board, sizeof s->board);
    s->side = pos->side;
    s->st = *pos_state(pos);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: eval-speed FILE.epd...\n");
        return 2;
    }
    position_init();
    eval_init();
    static Position pos;
    Snapshot *snaps = malloc(sizeof(Snapshot) * MAX_POSITIONS);
    if (!snaps)
        return 1;
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            fprintf(stderr, "error: cannot open %s\n", argv[i]);
            return 1;
        }
        char line[1024], fen[512], err[160], parts[4][100];
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "%99s %99s %99s %99s", parts[0], parts[1], parts[2], parts[3]) != 4)
                continue;
            snprintf(fen, sizeof fen, "%s %s %s %s 0 1", parts[0], parts[1], parts[2], parts[3]);
            if (!position_from_fen(&pos, fen, err, sizeof err, NULL))
                continue;
            MoveList list;
            generate_legal(&pos, &list);
            for (int m = -1; m < list.count && n < MAX_POSITIONS; m++) {
                if (m >= 0)
                    make_move(&pos, list.moves[m]);
                save(&pos, &snaps[n++]);
                if (m >= 0)
                    unmake_move(&pos, list.moves[m]);
            }
        }
        fclose(f);
    }

    /* The copy into the position is timed alone and subtracted. */
    PawnTable *table = pawn_table_new();
    long long sum = 0;
    double copy_us = 0, warm_us = 0, cold_us = 0;
    for (int round = 0; round < ROUNDS; round++) {
        double t0 = (double)time_now_us();
        for (int i = 0; i < n; i++) {
            restore(&pos, &snaps[i]);
            sum += pos.board[i & 63];
        }
        double t1 = (double)time_now_us();
        for (int i = 0; i < n; i++) {
            restore(&pos, &snaps[i]);
            sum += evaluate(&pos, table);
        }
        double t2 = (double)time_now_us();
        for (int i = 0; i < n; i++) {
            restore(&pos, &snaps[i]);
            sum += evaluate(&pos, NULL);
        }
        double t3 = (double)time_now_us();
        copy_us += t1 - t0;
        warm_us += t2 - t1;
        cold_us += t3 - t2;
    }
    double evals = (double)n * ROUNDS;
    double warm = warm_us - copy_us, cold = cold_us - copy_us;
    printf("positions: %d (EPD records and one ply later), rounds: %d, checksum %lld\n", n, ROUNDS, sum);
    printf("with pawn hash:    %.0f evals/s (%.0f ns each)\n", evals / (warm / 1e6), warm * 1000 / evals);
    printf("without pawn hash: %.0f evals/s (%.0f ns each)\n", evals / (cold / 1e6), cold * 1000 / evals);
    pawn_table_free(table);
    free(snaps);
    return 0;
}

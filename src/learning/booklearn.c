/* Book learning: see booklearn.h. */
#include "learning/booklearn.h"

#include <stdlib.h>

#include "formats/movecode.h"

void booklearn_free(BookLearn *bl)
{
    free(bl->stats);
    bl->stats = NULL;
    bl->count = 0;
}

void booklearn_set_stats(BookLearn *bl, LearnBookStat *stats, int count)
{
    free(bl->stats);
    bl->stats = stats;
    bl->count = count;
}

void booklearn_played(BookLearn *bl, const Position *pos, Move m, int ply)
{
    int code = movecode_encode_checked(pos, m);
    if (code == MOVECODE_ERROR || bl->played_count == LEARN_BOOK_PLAYED_MAX)
        return;
    BookPlayed *b = &bl->played[bl->played_count++];
    b->key = pos_key(pos);
    b->code = (uint8_t)code;
    b->side = (uint8_t)pos->side;
    b->ply = ply;
    b->move = m;
}

size_t booklearn_results(const BookLearn *bl, const Move *moves, int count, int result,
                         uint8_t *out, size_t cap)
{
    size_t len = 0;
    if (result == LEARN_RESULT_UNKNOWN)
        return 0;
    for (int i = 0; i < bl->played_count; i++) {
        const BookPlayed *b = &bl->played[i];
        if (b->ply >= count || moves[b->ply] != b->move)
            continue;
        LearnBookStat s = { b->key, b->code, 0, 0, 0 };
        if (result == LEARN_RESULT_DRAW)
            s.draws = 1;
        else if ((result == LEARN_RESULT_WHITE) == (b->side == WHITE))
            s.wins = 1;
        else
            s.losses = 1;
        len += learn_encode_book(&s, out + len, cap - len);
    }
    return len;
}

bool booklearn_stat(const BookLearn *bl, Key key, int code, LearnBookStat *out)
{
    int lo = 0, hi = bl->count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const LearnBookStat *b = &bl->stats[mid];
        if (b->key == key && b->code == code) {
            *out = *b;
            return true;
        }
        if (b->key < key || (b->key == key && b->code < code))
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return false;
}

void booklearn_adjust(const BookLearn *bl, const Position *pos, BookMove *moves, int n)
{
    if (!bl->count)
        return;
    for (int i = 0; i < n; i++) {
        int code = moves[i].code >= 0 ? moves[i].code : movecode_encode_checked(pos, moves[i].move);
        LearnBookStat s;
        if (code == MOVECODE_ERROR || !booklearn_stat(bl, pos_key(pos), code, &s))
            continue;
        moves[i].wins += s.wins;
        moves[i].draws += s.draws;
        moves[i].losses += s.losses;
        moves[i].count += (uint32_t)s.wins + s.draws + s.losses;
        if (moves[i].weight == 0)
            continue;
        double factor = (s.wins + s.draws / 2.0 + 1) / (s.losses + s.draws / 2.0 + 1);
        factor = factor < 1.0 / 16 ? 1.0 / 16 : factor > 16 ? 16 : factor;
        double w = moves[i].weight * factor + 0.5;
        moves[i].weight = w < 1 ? 1 : w > 4e9 ? 4000000000u : (uint32_t)w;
    }
    for (int i = 1; i < n; i++) {
        BookMove m = moves[i];
        int j = i - 1;
        for (; j >= 0 && moves[j].weight < m.weight; j--)
            moves[j + 1] = moves[j];
        moves[j + 1] = m;
    }
}

/* Accumulators and the output layer (nnue_eval.h). The SIMD paths (AVX-512BW, AVX2) and
 * the plain C path compute the same integers: the output weights are at most 127 in
 * absolute value (network.c refuses others), so clamp(v) * w fits 16 bits, and every
 * product is summed exactly. */
#include "nnue/nnue_eval.h"

#include <string.h>

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#endif

void nnue_state_reset(NnueState *s)
{
    for (int i = 0; i < NNUE_RING; i++)
        s->ring[i].valid = false;
    s->net_id = 0;
}

void nnue_refresh(const Network *net, const Position *pos, int16_t out[COLOR_NB][NNUE_HIDDEN])
{
    for (int persp = WHITE; persp <= BLACK; persp++) {
        int16_t *acc = out[persp];
        memcpy(acc, net->ft_bias, sizeof net->ft_bias);
        for (Bitboard b = pieces(pos); b; b &= b - 1) {
            Square sq = lsb(b);
            Piece pc = piece_on(pos, sq);
            const int16_t *w = net->ft_weights[nnue_feature(persp, color_of(pc), type_of(pc), sq)];
            for (int i = 0; i < NNUE_HIDDEN; i++)
                acc[i] = (int16_t)(acc[i] + w[i]);
        }
    }
}

/* The features one move adds and removes, for both perspectives. */
typedef struct {
    int add[2][2], sub[2][2]; /* [perspective][k] */
    int adds, subs;
} Delta;

static void delta_piece(Delta *d, bool add, Piece pc, Square sq)
{
    int k = add ? d->adds++ : d->subs++;
    for (int persp = WHITE; persp <= BLACK; persp++) {
        int f = nnue_feature(persp, color_of(pc), type_of(pc), sq);
        if (add)
            d->add[persp][k] = f;
        else
            d->sub[persp][k] = f;
    }
}

/* The change made by the move of state st, played by colour us. */
static void move_delta(const Position *pos, const StateInfo *st, Color us, Delta *d)
{
    d->adds = d->subs = 0;
    Move m = st->move;
    if (m == MOVE_NULL || m == MOVE_NONE)
        return;
    Square from = move_from(m), to = move_to(m);
    Piece pc = st->moved;
    if (move_is_castle(m)) {
        bool queen_side = move_flags(m) == FLAG_CASTLE_QUEEN;
        Piece rook = make_piece(us, ROOK);
        delta_piece(d, false, pc, from);
        delta_piece(d, false, rook, pos->castle_rook[castle_index(us, queen_side)]);
        delta_piece(d, true, pc, to);
        delta_piece(d, true, rook, castle_rook_to(us, queen_side));
        return;
    }
    delta_piece(d, false, pc, from);
    if (st->captured != NO_PIECE) {
        /* Two removals at most: the mover's origin and the captured piece. */
        delta_piece(d, false, st->captured, move_is_ep(m) ? to - pawn_push(us) : to);
    }
    delta_piece(d, true, move_is_promotion(m) ? make_piece(us, move_promo_type(m)) : pc, to);
}

static void apply_delta(const Network *net, const int16_t *in, int16_t *out, const Delta *d, int persp)
{
    const int16_t *a0 = net->ft_weights[d->add[persp][0]];
    const int16_t *s0 = net->ft_weights[d->sub[persp][0]];
    if (d->adds == 1 && d->subs == 1) {
        for (int i = 0; i < NNUE_HIDDEN; i++)
            out[i] = (int16_t)(in[i] + a0[i] - s0[i]);
    } else if (d->adds == 1 && d->subs == 2) {
        const int16_t *s1 = net->ft_weights[d->sub[persp][1]];
        for (int i = 0; i < NNUE_HIDDEN; i++)
            out[i] = (int16_t)(in[i] + a0[i] - s0[i] - s1[i]);
    } else {
        const int16_t *a1 = net->ft_weights[d->add[persp][1]];
        const int16_t *s1 = net->ft_weights[d->sub[persp][1]];
        for (int i = 0; i < NNUE_HIDDEN; i++)
            out[i] = (int16_t)(in[i] + a0[i] + a1[i] - s0[i] - s1[i]);
    }
}

/* Sum over i of clamp(v_i, 0, QA)^2 * w_i, exactly. */
static int64_t screlu_dot(const int16_t *v, const int16_t *w)
{
#if defined(__AVX512BW__)
    const __m512i zero = _mm512_setzero_si512(), qa = _mm512_set1_epi16(NNUE_QA);
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < NNUE_HIDDEN; i += 32) {
        __m512i x = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512((const void *)(v + i)), zero), qa);
        __m512i xw = _mm512_mullo_epi16(x, _mm512_loadu_si512((const void *)(w + i)));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(xw, x));
    }
    return _mm512_reduce_add_epi32(sum);
#elif defined(__AVX2__)
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < NNUE_HIDDEN; i += 16) {
        __m256i x = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(v + i)), zero), qa);
        __m256i xw = _mm256_mullo_epi16(x, _mm256_loadu_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(xw, x));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
#else
    int64_t sum = 0;
    for (int i = 0; i < NNUE_HIDDEN; i++) {
        int x = v[i] < 0 ? 0 : v[i] > NNUE_QA ? NNUE_QA : v[i];
        sum += (int64_t)(int16_t)(x * w[i]) * x;
    }
    return sum;
#endif
}

int nnue_output(const Network *net, const int16_t acc[COLOR_NB][NNUE_HIDDEN], Color stm, int piece_count)
{
    int bucket = nnue_bucket(piece_count);
    const int16_t *w = net->out_weights[bucket];
    int64_t sum = screlu_dot(acc[stm], w) + screlu_dot(acc[!stm], w + NNUE_HIDDEN);
    int64_t v = (sum / NNUE_QA + net->out_bias[bucket]) * NNUE_SCALE / (NNUE_QA * NNUE_QB);
    return v > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : v < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : (int)v;
}

const Accumulator *nnue_current(const NnueState *s, const Position *pos)
{
    const Accumulator *a = &s->ring[pos->st_index & (NNUE_RING - 1)];
    return a->valid && a->key == pos_key(pos) ? a : NULL;
}

int nnue_evaluate(const Network *net, NnueState *s, const Position *pos)
{
    if (s->net_id != net->id) {
        nnue_state_reset(s);
        s->net_id = net->id;
    }
    int cur = pos->st_index, k = cur;
    /* The nearest state back along the path whose accumulator is known. */
    for (;;) {
        const Accumulator *a = &s->ring[k & (NNUE_RING - 1)];
        if (a->valid && a->key == pos->states[k].key)
            break;
        if (k == 0 || cur - k >= NNUE_MAX_REPLAY) {
            k = -1;
            break;
        }
        k--;
    }
    Accumulator *acc = &s->ring[cur & (NNUE_RING - 1)];
    if (k < 0) {
        nnue_refresh(net, pos, acc->v);
        s->refreshes++;
    } else {
        for (int j = k + 1; j <= cur; j++) {
            const Accumulator *prev = &s->ring[(j - 1) & (NNUE_RING - 1)];
            Accumulator *next = &s->ring[j & (NNUE_RING - 1)];
            Color mover = (cur - (j - 1)) & 1 ? !pos->side : pos->side;
            Delta d;
            move_delta(pos, &pos->states[j], mover, &d);
            if (d.adds == 0) {
                memcpy(next->v, prev->v, sizeof next->v);
            } else {
                apply_delta(net, prev->v[WHITE], next->v[WHITE], &d, WHITE);
                apply_delta(net, prev->v[BLACK], next->v[BLACK], &d, BLACK);
            }
            next->key = pos->states[j].key;
            next->valid = true;
            s->updates++;
        }
    }
    acc->key = pos_key(pos);
    acc->valid = true;
    return nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc->v, pos->side, popcount(pieces(pos)));
}

void nnue_print(const Network *net, const Position *pos, Writer *out)
{
    if (!net) {
        writer_printf(out, "NNUE evaluation: no net (none built in, and EvalFile names none)\n");
        return;
    }
    static _Thread_local int16_t acc[COLOR_NB][NNUE_HIDDEN];
    nnue_refresh(net, pos, acc);
    int v = nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc, pos->side, popcount(pieces(pos)));
    writer_printf(out, "NNUE evaluation: %+.2f (side to move), net %08x\n", v / 100.0, net->id);
}

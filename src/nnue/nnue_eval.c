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

/* Each perspective's flip (nnue_flip) in pos; a plain net's is always 0. */
static void king_flips(const Network *net, const Position *pos, int flip[COLOR_NB])
{
    for (int c = WHITE; c <= BLACK; c++)
        flip[c] = net->mapping == NNUE_MAP_PLAIN ? 0 : nnue_flip(net->mapping, king_square(pos, c));
}

static void refresh_side(const Network *net, const Position *pos, int persp, int flip, int16_t *acc)
{
    memcpy(acc, net->ft_bias, sizeof net->ft_bias);
    for (Bitboard b = pieces(pos); b; b &= b - 1) {
        Square sq = lsb(b);
        Piece pc = piece_on(pos, sq);
        const int16_t *w =
            net->ft_weights[nnue_feature(persp, color_of(pc), type_of(pc), sq, flip)];
        for (int i = 0; i < NNUE_HIDDEN; i++)
            acc[i] = (int16_t)(acc[i] + w[i]);
    }
}

void nnue_refresh(const Network *net, const Position *pos, int16_t out[COLOR_NB][NNUE_HIDDEN])
{
    int flip[COLOR_NB];
    king_flips(net, pos, flip);
    for (int persp = WHITE; persp <= BLACK; persp++)
        refresh_side(net, pos, persp, flip[persp], out[persp]);
}

/* The features one move adds and removes, for both perspectives. */
typedef struct {
    int add[2][2], sub[2][2]; /* [perspective][k] */
    int adds, subs;
    int flip[2];              /* each perspective's, as in the position evaluated */
} Delta;

static void delta_piece(Delta *d, bool add, Piece pc, Square sq)
{
    int k = add ? d->adds++ : d->subs++;
    for (int persp = WHITE; persp <= BLACK; persp++) {
        int f = nnue_feature(persp, color_of(pc), type_of(pc), sq, d->flip[persp]);
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

/* Whether the move of st changes its mover's flip: an HM net's king crossing between the
 * d- and e-files (castling included), after which every feature of that perspective is
 * another one. */
static bool king_crosses(const Network *net, const StateInfo *st)
{
    Move m = st->move;
    return net->mapping == NNUE_MAP_HM && m != MOVE_NULL && m != MOVE_NONE
        && type_of(st->moved) == KING && ((move_from(m) ^ move_to(m)) & 4);
}

static void apply_delta(const Network *net, const int16_t *in, int16_t *out, const Delta *d,
                        int persp)
{
    if (d->adds == 0) {
        memcpy(out, in, NNUE_HIDDEN * sizeof *out);
        return;
    }
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
        __m512i x =
            _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512((const void *)(v + i)), zero), qa);
        __m512i xw = _mm512_mullo_epi16(x, _mm512_loadu_si512((const void *)(w + i)));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(xw, x));
    }
    return _mm512_reduce_add_epi32(sum);
#elif defined(__AVX2__)
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < NNUE_HIDDEN; i += 16) {
        __m256i x = _mm256_min_epi16(
            _mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(v + i)), zero), qa);
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

int nnue_output(const Network *net, const int16_t acc[COLOR_NB][NNUE_HIDDEN], Color stm,
                int piece_count)
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

/* The colour that played the move leading to state j of pos. */
static Color mover_of(const Position *pos, int j)
{
    return (pos->st_index - (j - 1)) & 1 ? !pos->side : pos->side;
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
    int flip[COLOR_NB];
    king_flips(net, pos, flip);
    if (k < 0) {
        nnue_refresh(net, pos, acc->v);
        s->refreshes++;
    } else {
        /* A perspective whose king crosses the d/e line sees every piece elsewhere from
         * then on: from that move its half of the slots is not computed (they are left
         * invalid), and it is refreshed from the board at the end. Before, its flip was
         * the one it has now, changed once for every crossing in the moves replayed. */
        Delta d;
        bool lost[COLOR_NB] = { false, false };
        d.flip[WHITE] = flip[WHITE], d.flip[BLACK] = flip[BLACK];
        for (int j = k + 1; j <= cur && net->mapping == NNUE_MAP_HM; j++)
            if (king_crosses(net, &pos->states[j]))
                d.flip[mover_of(pos, j)] ^= 7;
        for (int j = k + 1; j <= cur; j++) {
            const Accumulator *prev = &s->ring[(j - 1) & (NNUE_RING - 1)];
            Accumulator *next = &s->ring[j & (NNUE_RING - 1)];
            Color mover = mover_of(pos, j);
            move_delta(pos, &pos->states[j], mover, &d);
            lost[mover] |= king_crosses(net, &pos->states[j]);
            for (int persp = WHITE; persp <= BLACK; persp++)
                if (!lost[persp])
                    apply_delta(net, prev->v[persp], next->v[persp], &d, persp);
            next->key = pos->states[j].key;
            next->valid = !lost[WHITE] && !lost[BLACK];
            s->updates++;
        }
        for (int persp = WHITE; persp <= BLACK; persp++)
            if (lost[persp])
                refresh_side(net, pos, persp, flip[persp], acc->v[persp]);
    }
    acc->key = pos_key(pos);
    acc->valid = true;
    return nnue_output(net, (const int16_t(*)[NNUE_HIDDEN])acc->v, pos->side,
                       popcount(pieces(pos)));
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

/* Packing the evaluation trace and rebuilding the score (exactly, and smoothly with its
 * gradient) from it. The formulas follow evaluate_full() in eval/evaluate.c step by step;
 * a change there needs the same change here (the tests compare the two on every
 * position of the EPD suites). */
#include "tune/coeffs.h"

#include <math.h>
#include <string.h>

#include "eval/endgame.h"
#include "eval/evaluate.h"

#define PHASE_MAX 24
#define DANGER_MAX 3000

void tune_layout_init(TuneLayout *layout)
{
    int k = 0;
    for (int s = 0; s < PARAM_SLOTS; s++)
        layout->mg[s] = layout->eg[s] = -1;
    for (int i = 0; i < PARAM_INFO_COUNT; i++) {
        const ParamInfo *info = &PARAM_INFO[i];
        int first = (int)(info->offset / sizeof(int32_t));
        for (int j = 0; j < info->count; j++) {
            layout->mg[first + j] = k++;
            if (info->kind == PARAM_SCORE)
                layout->eg[first + j] = k++;
        }
    }
    layout->count = k;
    layout->ks_shelter = TSLOT(ks_shelter);
    layout->king_pawn_distance = TSLOT(king_pawn_distance);
}

void tune_theta_from_params(const TuneLayout *layout, const EvalParams *p, double *theta)
{
    const int32_t *slots = (const int32_t *)p;
    for (int s = 0; s < PARAM_SLOTS; s++) {
        if (layout->eg[s] >= 0) {
            theta[layout->mg[s]] = mg_value(slots[s]);
            theta[layout->eg[s]] = eg_value(slots[s]);
        } else {
            theta[layout->mg[s]] = slots[s];
        }
    }
}

static int round_clamped(double v, int limit)
{
    double r = floor(v + 0.5);
    return r > limit ? limit : r < -limit ? -limit : (int)r;
}

void tune_params_from_theta(const TuneLayout *layout, const double *theta, EvalParams *p)
{
    int32_t *slots = (int32_t *)p;
    for (int s = 0; s < PARAM_SLOTS; s++) {
        if (layout->eg[s] >= 0)
            slots[s] = make_score(round_clamped(theta[layout->mg[s]], 32000),
                                  round_clamped(theta[layout->eg[s]], 32000));
        else
            slots[s] = round_clamped(theta[layout->mg[s]], 1 << 20);
    }
}

/* ---- Packing ---- */

size_t tune_pack_size(const EvalCoeffs *t)
{
    size_t n = 0;
    if (t->special) {
        for (int s = 0; s < PARAM_SLOTS; s++)
            n += t->special_coef[s] != 0;
        return n;
    }
    for (int s = 0; s < PARAM_SLOTS; s++)
        n += t->linear[WHITE][s] != t->linear[BLACK][s];
    for (Color c = WHITE; c <= BLACK; c++) {
        for (int i = 0; i < t->shelter[c].candidates; i++)
            n += (size_t)t->shelter[c].candidate[i].count;
        if (t->danger_on[c])
            for (int s = 0; s < PARAM_SLOTS; s++)
                n += t->danger[c][s] != 0;
        n += (size_t)t->scale[c].count;
    }
    return n;
}

void tune_pack(const EvalCoeffs *t, float result, TunePos *tp, TuneCoef *pool, uint32_t start)
{
    memset(tp, 0, sizeof *tp);
    tp->start = start;
    tp->result = result;
    TuneCoef *out = pool + start;
    if (t->special) {
        tp->flags = TP_SPECIAL;
        tp->special_constant = t->special_constant;
        for (int s = 0; s < PARAM_SLOTS; s++)
            if (t->special_coef[s]) {
                *out++ = (TuneCoef){ (uint16_t)s, t->special_coef[s] };
                tp->n_special++;
            }
        return;
    }
    tp->phase = (uint8_t)t->phase;
    for (int s = 0; s < PARAM_SLOTS; s++)
        if (t->linear[WHITE][s] != t->linear[BLACK][s]) {
            *out++ =
                (TuneCoef){ (uint16_t)s, (int16_t)(t->linear[WHITE][s] - t->linear[BLACK][s]) };
            tp->n_linear++;
        }
    for (Color c = WHITE; c <= BLACK; c++) {
        const ShelterTrace *st = &t->shelter[c];
        tp->n_candidates[c] = (uint8_t)st->candidates;
        tp->pawn_distance[c] = (uint8_t)st->pawn_distance;
        for (int i = 0; i < st->candidates; i++) {
            tp->candidate_length[c][i] = (uint8_t)st->candidate[i].count;
            for (int j = 0; j < st->candidate[i].count; j++)
                *out++ = (TuneCoef){ st->candidate[i].slot[j], st->candidate[i].coef[j] };
        }
        if (t->danger_on[c]) {
            tp->flags |= c == WHITE ? TP_DANGER_WHITE : TP_DANGER_BLACK;
            for (int s = 0; s < PARAM_SLOTS; s++)
                if (t->danger[c][s]) {
                    *out++ = (TuneCoef){ (uint16_t)s, t->danger[c][s] };
                    tp->n_danger[c]++;
                }
        }
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        const ScaleTrace *sc = &t->scale[c];
        tp->scale_constant[c] = (uint8_t)sc->constant;
        tp->n_scale[c] = (uint8_t)sc->count;
        if (sc->clamp)
            tp->flags |= c == WHITE ? TP_SCALE_CLAMP_WHITE : TP_SCALE_CLAMP_BLACK;
        for (int i = 0; i < sc->count; i++)
            *out++ = (TuneCoef){ sc->slot[i], sc->coef[i] };
    }
}

/* ---- Exact integer score ---- */

static int slot_mg(const EvalParams *p, const TuneLayout *layout, int s)
{
    int32_t v = ((const int32_t *)p)[s];
    return layout->eg[s] >= 0 ? mg_value(v) : v;
}

static int slot_eg(const EvalParams *p, int s)
{
    return eg_value(((const int32_t *)p)[s]);
}

int tune_eval_exact(const TunePos *tp, const TuneCoef *pool, const TuneLayout *layout,
                    const EvalParams *p)
{
    const TuneCoef *c = pool + tp->start;
    if (tp->flags & TP_SPECIAL) {
        int v = tp->special_constant;
        for (int i = 0; i < tp->n_special; i++, c++)
            v += c->coef
               * (layout->eg[c->slot] >= 0 ? slot_eg(p, c->slot) : slot_mg(p, layout, c->slot));
        return v;
    }
    int mg = 0, eg = 0;
    for (int i = 0; i < tp->n_linear; i++, c++) {
        mg += c->coef * slot_mg(p, layout, c->slot);
        eg += c->coef * slot_eg(p, c->slot);
    }
    for (Color side = WHITE; side <= BLACK; side++) {
        int sign = side == WHITE ? 1 : -1;
        int best_mg = 0, best_eg = 0;
        for (int i = 0; i < tp->n_candidates[side]; i++) {
            int cm = 0, ce = 0;
            for (int j = 0; j < tp->candidate_length[side][i]; j++, c++) {
                cm += c->coef * slot_mg(p, layout, c->slot);
                ce += c->coef * slot_eg(p, c->slot);
            }
            if (i == 0 || cm > best_mg) {
                best_mg = cm;
                best_eg = ce;
            }
        }
        int shelter_mg =
            best_mg + tp->pawn_distance[side] * slot_mg(p, layout, layout->king_pawn_distance);
        int shelter_eg = best_eg + tp->pawn_distance[side] * slot_eg(p, layout->king_pawn_distance);
        mg += sign * shelter_mg;
        eg += sign * shelter_eg;
        if (tp->flags & (side == WHITE ? TP_DANGER_WHITE : TP_DANGER_BLACK)) {
            int danger = 0;
            for (int i = 0; i < tp->n_danger[side]; i++, c++)
                danger += c->coef * slot_mg(p, layout, c->slot);
            danger += p->ks_shelter * shelter_mg / 8;
            if (danger > 0) {
                if (danger > DANGER_MAX)
                    danger = DANGER_MAX;
                mg -= sign * (danger * danger / 512);
                eg -= sign * (danger / 16);
            }
        }
    }
    int scale[COLOR_NB];
    for (Color side = WHITE; side <= BLACK; side++) {
        scale[side] = tp->scale_constant[side];
        for (int i = 0; i < tp->n_scale[side]; i++, c++)
            scale[side] += c->coef * slot_mg(p, layout, c->slot);
        if ((tp->flags & (side == WHITE ? TP_SCALE_CLAMP_WHITE : TP_SCALE_CLAMP_BLACK))
            && scale[side] > SCALE_NORMAL)
            scale[side] = SCALE_NORMAL;
    }
    int phase = tp->phase;
    int sc = eg != 0 ? scale[eg > 0 ? WHITE : BLACK] : SCALE_NORMAL;
    int v = sc == 0 ? 0 : (mg * phase + eg * (PHASE_MAX - phase) * sc / SCALE_NORMAL) / PHASE_MAX;
    return v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
}

/* ---- Smooth score and gradient ---- */

double tune_eval(const TunePos *tp, const TuneCoef *pool, const TuneLayout *L, const double *theta,
                 double *grad, double factor)
{
    const TuneCoef *c = pool + tp->start;
    if (tp->flags & TP_SPECIAL) {
        double v = tp->special_constant;
        for (int i = 0; i < tp->n_special; i++, c++) {
            int k = L->eg[c->slot] >= 0 ? L->eg[c->slot] : L->mg[c->slot];
            v += c->coef * theta[k];
            if (grad)
                grad[k] += factor * c->coef;
        }
        return v;
    }
    double mg = 0, eg = 0;
    const TuneCoef *linear = c;
    for (int i = 0; i < tp->n_linear; i++, c++) {
        mg += c->coef * theta[L->mg[c->slot]];
        eg += c->coef * theta[L->eg[c->slot]];
    }
    /* Per side: the chosen shelter's terms and the danger, kept for the gradient. */
    const TuneCoef *chosen[COLOR_NB], *danger_terms[COLOR_NB];
    int chosen_length[COLOR_NB];
    double shelter_mg[COLOR_NB], danger[COLOR_NB];
    const double ks = theta[L->mg[L->ks_shelter]];
    const int kpd = L->king_pawn_distance;
    for (Color side = WHITE; side <= BLACK; side++) {
        int sign = side == WHITE ? 1 : -1;
        double best_mg = 0, best_eg = 0;
        chosen[side] = c;
        chosen_length[side] = 0;
        for (int i = 0; i < tp->n_candidates[side]; i++) {
            const TuneCoef *first = c;
            double cm = 0, ce = 0;
            for (int j = 0; j < tp->candidate_length[side][i]; j++, c++) {
                cm += c->coef * theta[L->mg[c->slot]];
                ce += c->coef * theta[L->eg[c->slot]];
            }
            if (i == 0 || cm > best_mg) {
                best_mg = cm;
                best_eg = ce;
                chosen[side] = first;
                chosen_length[side] = tp->candidate_length[side][i];
            }
        }
        shelter_mg[side] = best_mg + tp->pawn_distance[side] * theta[L->mg[kpd]];
        mg += sign * shelter_mg[side];
        eg += sign * (best_eg + tp->pawn_distance[side] * theta[L->eg[kpd]]);
        danger[side] = 0;
        danger_terms[side] = c;
        if (tp->flags & (side == WHITE ? TP_DANGER_WHITE : TP_DANGER_BLACK)) {
            double d = 0;
            for (int i = 0; i < tp->n_danger[side]; i++, c++)
                d += c->coef * theta[L->mg[c->slot]];
            d += ks * shelter_mg[side] / 8;
            danger[side] = d;
            if (d > 0) {
                double dc = d > DANGER_MAX ? DANGER_MAX : d;
                mg -= sign * dc * dc / 512;
                eg -= sign * dc / 16;
            }
        }
    }
    double scale[COLOR_NB];
    const TuneCoef *scale_terms[COLOR_NB];
    bool scale_clamped[COLOR_NB];
    for (Color side = WHITE; side <= BLACK; side++) {
        scale_terms[side] = c;
        scale[side] = tp->scale_constant[side];
        for (int i = 0; i < tp->n_scale[side]; i++, c++)
            scale[side] += c->coef * theta[L->mg[c->slot]];
        scale_clamped[side] =
            (tp->flags & (side == WHITE ? TP_SCALE_CLAMP_WHITE : TP_SCALE_CLAMP_BLACK))
            && scale[side] > SCALE_NORMAL;
        if (scale_clamped[side])
            scale[side] = SCALE_NORMAL;
    }
    const double phase = tp->phase;
    Color strong = eg > 0 ? WHITE : BLACK;
    double sc = eg != 0 ? scale[strong] : SCALE_NORMAL;
    if (eg != 0 && tp->n_scale[strong] == 0 && tp->scale_constant[strong] == 0)
        return 0; /* a dead draw: no weight changes it */
    double v = (mg * phase + eg * (PHASE_MAX - phase) * sc / SCALE_NORMAL) / PHASE_MAX;
    if (v > EVAL_MAX || v < -EVAL_MAX)
        return v > 0 ? EVAL_MAX : -EVAL_MAX;
    if (!grad)
        return v;

    const double a = factor * phase / PHASE_MAX;                                       /* dv/dmg */
    const double b = factor * (PHASE_MAX - phase) * sc / SCALE_NORMAL / PHASE_MAX;      /* dv/deg */
    c = linear;
    for (int i = 0; i < tp->n_linear; i++, c++) {
        grad[L->mg[c->slot]] += a * c->coef;
        grad[L->eg[c->slot]] += b * c->coef;
    }
    for (Color side = WHITE; side <= BLACK; side++) {
        int sign = side == WHITE ? 1 : -1;
        /* d(v)/d(shelter mg): directly, and through the danger's ks_shelter term. */
        double dv_dd = 0;
        double d = danger[side];
        if ((tp->flags & (side == WHITE ? TP_DANGER_WHITE : TP_DANGER_BLACK)) && d > 0
            && d < DANGER_MAX)
            dv_dd = -sign * (a * 2 * d / 512 + b / 16);
        double dshelter_mg = sign * a + dv_dd * ks / 8;
        double dshelter_eg = sign * b;
        c = chosen[side];
        for (int j = 0; j < chosen_length[side]; j++, c++) {
            grad[L->mg[c->slot]] += dshelter_mg * c->coef;
            grad[L->eg[c->slot]] += dshelter_eg * c->coef;
        }
        grad[L->mg[kpd]] += dshelter_mg * tp->pawn_distance[side];
        grad[L->eg[kpd]] += dshelter_eg * tp->pawn_distance[side];
        if (dv_dd != 0) {
            c = danger_terms[side];
            for (int i = 0; i < tp->n_danger[side]; i++, c++)
                grad[L->mg[c->slot]] += dv_dd * c->coef;
            grad[L->mg[L->ks_shelter]] += dv_dd * shelter_mg[side] / 8;
        }
    }
    if (eg != 0 && !scale_clamped[strong]) {
        double dv_ds = factor * eg * (PHASE_MAX - phase) / SCALE_NORMAL / PHASE_MAX;
        c = scale_terms[strong];
        for (int i = 0; i < tp->n_scale[strong]; i++, c++)
            grad[L->mg[c->slot]] += dv_ds * c->coef;
    }
    return v;
}

/* The float net, its gradient, Adam, quantisation and checkpoints (nnue_model.h). */
#include "nnue/train/nnue_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/crc32.h"
#include "util/outfile.h"
#include "util/random.h"

#define ADAM_BETA1 0.9f
#define ADAM_BETA2 0.999f
#define ADAM_EPS 1e-8f
#define CKPT_MAGIC_V1 "SVNNCKPT"
#define CKPT_MAGIC "SVNNCKP2"

static float uniform(uint64_t *rng, float limit)
{
    return (float)((double)(splitmix64(rng) >> 11) / (double)(1ULL << 53) * 2 - 1) * limit;
}

bool nnue_model_init(NnueModel *model, uint64_t seed)
{
    memset(model, 0, sizeof *model);
    model->best_loss = INFINITY;
    model->theta = calloc(NNUE_PARAMS, sizeof(float));
    model->m = calloc(NNUE_PARAMS, sizeof(float));
    model->v = calloc(NNUE_PARAMS, sizeof(float));
    if (!model->theta || !model->m || !model->v) {
        nnue_model_free(model);
        return false;
    }
    uint64_t rng = seed;
    for (int i = 0; i < NNUE_INPUTS * NNUE_HIDDEN; i++)
        model->theta[NNUE_W1 + i] = uniform(&rng, 1.0f / sqrtf((float)NNUE_INPUTS));
    for (int i = 0; i < NNUE_BUCKETS * 2 * NNUE_HIDDEN; i++)
        model->theta[NNUE_W2 + i] = uniform(&rng, 1.0f / sqrtf(2.0f * NNUE_HIDDEN));
    return true;
}

bool nnue_model_from_network(NnueModel *model, const Network *net)
{
    if (!nnue_model_init(model, 0))
        return false;
    model->mapping = net->mapping;
    float *t = model->theta;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            t[NNUE_W1 + f * NNUE_HIDDEN + i] = (float)net->ft_weights[f][i] / NNUE_QA;
    for (int i = 0; i < NNUE_HIDDEN; i++)
        t[NNUE_B1 + i] = (float)net->ft_bias[i] / NNUE_QA;
    for (int k = 0; k < NNUE_BUCKETS; k++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            t[NNUE_W2 + k * 2 * NNUE_HIDDEN + i] = (float)net->out_weights[k][i] / NNUE_QB;
        t[NNUE_B2 + k] = (float)((double)net->out_bias[k] / ((double)NNUE_QA * NNUE_QB));
    }
    return true;
}

void nnue_model_free(NnueModel *model)
{
    free(model->theta);
    free(model->m);
    free(model->v);
    memset(model, 0, sizeof *model);
}

static inline float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

float nnue_target(const PackedPos *p, float lambda)
{
    return lambda * sigmoid((float)p->score / NNUE_SCALE) + (1 - lambda) * 0.5f * p->result;
}

/* The two accumulators (before the activation) and the output of p. */
typedef struct {
    float acc[2][NNUE_HIDDEN];
    int feat[2][32];
    int count, bucket;
    float out;
} Forward;

static void forward(const NnueModel *model, const PackedPos *p, Forward *f)
{
    const float *restrict theta = model->theta;
    f->count = packed_features(p, model->mapping, f->feat[0], f->feat[1]);
    f->bucket = nnue_bucket(f->count);
    const float *b1 = theta + NNUE_B1;
    const float *w2 = theta + NNUE_W2 + f->bucket * 2 * NNUE_HIDDEN;
    float out = theta[NNUE_B2 + f->bucket];
    for (int side = 0; side < 2; side++) {
        float *restrict a = f->acc[side];
        memcpy(a, b1, sizeof f->acc[side]);
        for (int k = 0; k < f->count; k++) {
            const float *restrict w = theta + NNUE_W1 + f->feat[side][k] * NNUE_HIDDEN;
            for (int i = 0; i < NNUE_HIDDEN; i++)
                a[i] += w[i];
        }
        const float *restrict ws = w2 + side * NNUE_HIDDEN;
        float sum = 0;
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            float c = a[i] < 0 ? 0 : a[i] > 1 ? 1 : a[i];
            sum += c * c * ws[i];
        }
        out += sum;
    }
    f->out = out;
}

float nnue_model_eval(const NnueModel *model, const PackedPos *p)
{
    Forward f;
    forward(model, p, &f);
    return f.out * NNUE_SCALE;
}

double nnue_model_loss(const NnueModel *model, const PackedPos *pos, size_t n, float lambda)
{
    double loss = 0;
    Forward f;
    for (size_t j = 0; j < n; j++) {
        forward(model, &pos[j], &f);
        double d = sigmoid(f.out) - nnue_target(&pos[j], lambda);
        loss += d * d;
    }
    return loss;
}

double nnue_model_gradient(const NnueModel *model, const PackedPos *pos, size_t n, float lambda,
                           float *grad)
{
    const float *theta = model->theta;
    double loss = 0;
    Forward f;
    float da[NNUE_HIDDEN];
    for (size_t j = 0; j < n; j++) {
        forward(model, &pos[j], &f);
        float p = sigmoid(f.out), d = p - nnue_target(&pos[j], lambda);
        loss += (double)d * d;
        float g = 2 * d * p * (1 - p);
        const float *w2 = theta + NNUE_W2 + f.bucket * 2 * NNUE_HIDDEN;
        float *restrict gw2 = grad + NNUE_W2 + f.bucket * 2 * NNUE_HIDDEN;
        float *restrict gb1 = grad + NNUE_B1;
        grad[NNUE_B2 + f.bucket] += g;
        for (int side = 0; side < 2; side++) {
            const float *a = f.acc[side], *ws = w2 + side * NNUE_HIDDEN;
            float *restrict gws = gw2 + side * NNUE_HIDDEN;
            for (int i = 0; i < NNUE_HIDDEN; i++) {
                float c = a[i] < 0 ? 0 : a[i] > 1 ? 1 : a[i];
                gws[i] += g * c * c;
                da[i] = a[i] > 0 && a[i] < 1 ? g * ws[i] * 2 * c : 0;
                gb1[i] += da[i];
            }
            for (int k = 0; k < f.count; k++) {
                float *restrict gw = grad + NNUE_W1 + f.feat[side][k] * NNUE_HIDDEN;
                for (int i = 0; i < NNUE_HIDDEN; i++)
                    gw[i] += da[i];
            }
        }
    }
    return loss;
}

void nnue_model_adam(NnueModel *model, const float *grad, size_t batch, float lr, float wd)
{
    model->step++;
    /* Before the step, so that the decay is of the weights the gradient was taken at. */
    if (wd > 0) {
        float keep = 1 - lr * wd;
        for (int i = NNUE_W1; i < NNUE_B1; i++)
            model->theta[i] *= keep;
        for (int i = NNUE_W2; i < NNUE_B2; i++)
            model->theta[i] *= keep;
    }
    float scale = 1.0f / (float)batch;
    float c1 = 1 - powf(ADAM_BETA1, (float)model->step),
          c2 = 1 - powf(ADAM_BETA2, (float)model->step);
    float step = lr * sqrtf(c2) / c1;
    float *restrict theta = model->theta, *restrict m = model->m, *restrict v = model->v;
    for (int i = 0; i < NNUE_PARAMS; i++) {
        float g = grad[i] * scale;
        m[i] = ADAM_BETA1 * m[i] + (1 - ADAM_BETA1) * g;
        v[i] = ADAM_BETA2 * v[i] + (1 - ADAM_BETA2) * g * g;
        theta[i] -= step * m[i] / (sqrtf(v[i]) + ADAM_EPS);
    }
    for (int i = NNUE_W2; i < NNUE_B2; i++)
        theta[i] = theta[i] > NNUE_W2_LIMIT  ? NNUE_W2_LIMIT
                 : theta[i] < -NNUE_W2_LIMIT ? -NNUE_W2_LIMIT
                                             : theta[i];
}

static int16_t round16(double x, int lo, int hi)
{
    long r = lround(x);
    return (int16_t)(r < lo ? lo : r > hi ? hi : r);
}

void nnue_model_quantize(const NnueModel *model, Network *out, float scale)
{
    const float *t = model->theta;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            out->ft_weights[f][i] =
                round16(t[NNUE_W1 + f * NNUE_HIDDEN + i] * NNUE_QA, -32767, 32767);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        out->ft_bias[i] = round16(t[NNUE_B1 + i] * NNUE_QA, -32767, 32767);
    for (int k = 0; k < NNUE_BUCKETS; k++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            out->out_weights[k][i] =
                round16(t[NNUE_W2 + k * 2 * NNUE_HIDDEN + i] * scale * NNUE_QB, -127, 127);
        out->out_bias[k] = (int32_t)lround(t[NNUE_B2 + k] * scale * NNUE_QA * NNUE_QB);
    }
    out->id = 0;
    out->mapping = model->mapping;
}

/* Checkpoint: magic[8], params u32, step i64, epoch i32, best epoch i32, best id u32,
 * best loss f64, mapping u32, theta, m, v (floats), CRC-32 of all before it. The first
 * layout (CKPT_MAGIC_V1) ends its header at the epoch: a plain model. */
typedef struct {
    uint32_t params, mapping;
    int64_t step;
    int32_t epoch, best_epoch;
    uint32_t best_id;
    double best_loss;
} CkptHeader;

typedef struct {
    void *at;
    size_t size;
} Field;

/* The header's fields in file order (each written as it is in memory: little-endian). */
static int header_fields(CkptHeader *h, bool v1, Field *out)
{
    Field all[] = { { &h->params, 4 }, { &h->step, 8 }, { &h->epoch, 4 }, { &h->best_epoch, 4 },
                    { &h->best_id, 4 }, { &h->best_loss, 8 }, { &h->mapping, 4 } };
    int n = v1 ? 3 : 7;
    memcpy(out, all, (size_t)n * sizeof *out);
    return n;
}

bool nnue_model_save(const NnueModel *model, const char *path, char *err, size_t err_size)
{
    OutFile of;
    FILE *f = outfile_open(&of, path, err, err_size);
    if (!f)
        return false;
    CkptHeader h = { NNUE_PARAMS, (uint32_t)model->mapping, model->step, model->epoch,
                     model->best_epoch, model->best_id, model->best_loss };
    Field fields[12] = { { CKPT_MAGIC, 8 } };
    int n = 1 + header_fields(&h, false, fields + 1);
    fields[n++] = (Field){ model->theta, NNUE_PARAMS * 4 };
    fields[n++] = (Field){ model->m, NNUE_PARAMS * 4 };
    fields[n++] = (Field){ model->v, NNUE_PARAMS * 4 };
    uint32_t crc = 0;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        ok = ok && fwrite(fields[i].at, 1, fields[i].size, f) == fields[i].size;
        crc = crc32_update(crc, fields[i].at, fields[i].size);
    }
    ok = ok && fwrite(&crc, 4, 1, f) == 1;
    if (!ok) {
        outfile_abort(&of);
        snprintf(err, err_size, "cannot write %s", path);
        return false;
    }
    return outfile_commit(&of, err, err_size);
}

bool nnue_model_load(NnueModel *model, const char *path, char *err, size_t err_size)
{
    memset(model, 0, sizeof *model);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s", path);
        return false;
    }
    char magic[8];
    CkptHeader h = { 0, NNUE_MAP_PLAIN, 0, 0, 0, 0, INFINITY };
    uint32_t crc_file = 0, crc = 0;
    bool ok = fread(magic, 1, 8, f) == 8
           && (!memcmp(magic, CKPT_MAGIC, 8) || !memcmp(magic, CKPT_MAGIC_V1, 8));
    if (ok) {
        Field fields[7];
        int n = header_fields(&h, !memcmp(magic, CKPT_MAGIC_V1, 8), fields);
        crc = crc32_update(0, magic, 8);
        for (int i = 0; i < n && ok; i++) {
            ok = fread(fields[i].at, 1, fields[i].size, f) == fields[i].size;
            crc = crc32_update(crc, fields[i].at, fields[i].size);
        }
        ok = ok && h.params == NNUE_PARAMS && h.mapping < NNUE_MAP_COUNT
          && nnue_model_init(model, 0);
        float *arrays[] = { model->theta, model->m, model->v };
        for (int i = 0; i < 3 && ok; i++) {
            ok = fread(arrays[i], 4, NNUE_PARAMS, f) == NNUE_PARAMS;
            crc = crc32_update(crc, arrays[i], NNUE_PARAMS * 4);
        }
        ok = ok && fread(&crc_file, 4, 1, f) == 1 && crc_file == crc;
    }
    fclose(f);
    if (!ok) {
        nnue_model_free(model);
        snprintf(err, err_size, "%s: not a checkpoint of this net's shape, or damaged", path);
        return false;
    }
    model->step = h.step;
    model->epoch = h.epoch;
    model->best_epoch = h.best_epoch;
    model->best_id = h.best_id;
    model->best_loss = h.best_loss;
    model->mapping = (NnueMapping)h.mapping;
    return true;
}

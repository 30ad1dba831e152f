/* See nnue_testnet.h. */
#include "nnue_testnet.h"

#include "util/platform.h"
#include "util/random.h"

Network *nnue_test_net(uint64_t seed, NnueMapping mapping, uint8_t *bytes, size_t *size)
{
    Network *raw = pf_aligned_alloc(64, sizeof *raw);
    if (!raw)
        return NULL;
    uint64_t rng = seed;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            raw->ft_weights[f][i] = (int16_t)((int)(splitmix64(&rng) % 121) - 60);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        raw->ft_bias[i] = (int16_t)((int)(splitmix64(&rng) % 201) - 40);
    for (int k = 0; k < NNUE_BUCKETS; k++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            raw->out_weights[k][i] = (int16_t)((int)(splitmix64(&rng) % 255) - 127);
        raw->out_bias[k] = (int32_t)(splitmix64(&rng) % 100001) - 50000;
    }
    raw->mapping = mapping;
    *size = network_to_bytes(raw, bytes);
    pf_aligned_free(raw);
    char err[300];
    return network_from_bytes(bytes, *size, err, sizeof err);
}

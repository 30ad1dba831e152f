/* Random nets for the neural evaluation's tests: what they test is the arithmetic (the
 * file format, incremental updates against refreshes), not chess. */
#ifndef SAAVEDRA_TEST_NNUE_TESTNET_H
#define SAAVEDRA_TEST_NNUE_TESTNET_H

#include <stddef.h>
#include <stdint.h>

#include "nnue/network.h"

/* A net of the engine's shape with random weights from seed and the given input mapping,
 * written to bytes (NNUE_FILE_MAX of room; *size gets the file's size) and read back
 * from them; NULL when that fails. Feature weights are within +-60 and biases small, so
 * that sums of 32 features stay far from int16's limits but activations do vary. */
Network *nnue_test_net(uint64_t seed, NnueMapping mapping, uint8_t *bytes, size_t *size);

#endif

/* CRC-32 as zlib computes it (crc32_of("123456789", 9) == 0xCBF43926), for the
 * checksums of the files Saavedra writes. */
#ifndef SAAVEDRA_CRC32_H
#define SAAVEDRA_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32_of(const void *data, size_t size);
/* Continues a CRC over more data: crc32_update(crc32_of(a, n), b, m) is the CRC of a
 * followed by b. Start from 0. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t size);

#endif

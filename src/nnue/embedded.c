/* The net built into the binary: the file the build names in NNUE_EMBED_FILE (make
 * EVALFILE=PATH; by default src/nnue/nets/default.nnue), included byte for byte by the
 * assembler, so that `make && ./saavedra` needs no file beside the engine. */
#include <stdio.h>

#include "nnue/network.h"
#include "util/platform.h"

#ifdef NNUE_EMBED_FILE
__asm__(PF_ASM_RODATA_BEGIN "\n"
        ".balign 64\n"
        ".globl saavedra_embedded_net\n"
        "saavedra_embedded_net:\n"
        ".incbin \"" NNUE_EMBED_FILE "\"\n"
        ".globl saavedra_embedded_net_end\n"
        "saavedra_embedded_net_end:\n"
        PF_ASM_RODATA_END "\n");
extern const unsigned char saavedra_embedded_net[], saavedra_embedded_net_end[];

Network *network_default(char *err, size_t err_size)
{
    char why[200];
    Network *net = network_from_bytes(saavedra_embedded_net,
                                      (size_t)(saavedra_embedded_net_end - saavedra_embedded_net),
                                      why, sizeof why);
    if (!net)
        snprintf(err, err_size, "the built-in net: %s", why);
    return net;
}

bool network_default_crc(uint32_t *crc)
{
    size_t size = (size_t)(saavedra_embedded_net_end - saavedra_embedded_net);
    if (size < 4)
        return false;
    const unsigned char *p = saavedra_embedded_net + (size - 4);
    *crc = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return true;
}
#else
bool network_default_crc(uint32_t *crc)
{
    (void)crc;
    return false;
}

Network *network_default(char *err, size_t err_size)
{
    snprintf(err, err_size, "this build has no net built in");
    return NULL;
}
#endif

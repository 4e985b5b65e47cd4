/* sum_bytes_buggy(buf, len): buf is an exact copy of the data. */
#include "fuzz_common.h"
#include "seeded_offbyone.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *buf = fz_buf(data, size);
    FZ_SINK(sum_bytes_buggy(buf, size));
    free(buf);
    return 0;
}

/* crc8(buf, len): buf is an exact copy of the data. */
#include "fuzz_common.h"
#include "checksum.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *buf = fz_buf(data, size);
    FZ_SINK(crc8(buf, size));
    free(buf);
    return 0;
}

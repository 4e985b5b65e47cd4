/* utf8_decode(buf, len, &cp): buf is an exact copy of the data. */
#include "fuzz_common.h"
#include "utf8.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *buf = fz_buf(data, size);
    uint32_t cp;
    if (utf8_decode(buf, size, &cp) > 0)
        FZ_SINK(cp);
    free(buf);
    return 0;
}

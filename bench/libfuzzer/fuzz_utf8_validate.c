/* utf8_validate(buf, len): buf is an exact copy of the data. */
#include "fuzz_common.h"
#include "utf8.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *buf = fz_buf(data, size);
    FZ_SINK(utf8_validate(buf, size));
    free(buf);
    return 0;
}

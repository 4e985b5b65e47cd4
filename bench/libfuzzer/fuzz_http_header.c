/* http_header(buf, len, ...): buf is an exact copy of the data. */
#include "fuzz_common.h"
#include "http.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = (char *)fz_buf(data, size);
    size_t name_len, val_off, val_len;
    if (http_header(buf, size, &name_len, &val_off, &val_len) == 0)
        FZ_SINK(name_len + val_off + val_len);
    free(buf);
    return 0;
}

/* http_request_line(buf, len, ...): buf is an exact copy of the data. */
#include "fuzz_common.h"
#include "http.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = (char *)fz_buf(data, size);
    size_t off, len;
    int minor;
    if (http_request_line(buf, size, &off, &len, &minor) == 0)
        FZ_SINK(off + len + (size_t)minor);
    free(buf);
    return 0;
}

/* http_chunk_size(s, len, &size): s is an exact copy of the data. */
#include "fuzz_common.h"
#include "http.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = (char *)fz_buf(data, size);
    uint64_t n;
    if (http_chunk_size(s, size, &n) > 0)
        FZ_SINK(n);
    free(s);
    return 0;
}

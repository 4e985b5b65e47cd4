/* parse_hex_u32(s, &out): s is the data, NUL-terminated. */
#include "fuzz_common.h"
#include "intconv.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_str(data, size);
    uint32_t v;
    if (parse_hex_u32(s, &v) == 0)
        FZ_SINK(v);
    free(s);
    return 0;
}

/* parse_ipv4(s, &addr): s is the data, NUL-terminated. */
#include "fuzz_common.h"
#include "netstr.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_str(data, size);
    uint32_t a;
    if (parse_ipv4(s, &a) == 0)
        FZ_SINK(a);
    free(s);
    return 0;
}

/* checked_atoi(s, &out): s is the data, NUL-terminated. */
#include "fuzz_common.h"
#include "intconv.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_str(data, size);
    int v;
    if (checked_atoi(s, &v) == 0)
        FZ_SINK(v);
    free(s);
    return 0;
}

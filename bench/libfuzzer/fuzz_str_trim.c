/* str_trim(s): s is the data, NUL-terminated and writable. */
#include "fuzz_common.h"
#include "strbuf.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_str(data, size);
    FZ_SINK(str_trim(s));
    FZ_SINK(s[0]);
    free(s);
    return 0;
}

/* version_compare(a, b): two NUL-terminated strings, split at the first NUL. */
#include "fuzz_common.h"
#include "version.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *a, *b;
    fz_split2(data, size, &a, &b);
    FZ_SINK(version_compare(a, b));
    free(a);
    free(b);
    return 0;
}

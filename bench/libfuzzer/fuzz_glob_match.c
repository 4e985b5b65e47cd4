/* glob_match(pat, s): two NUL-terminated strings, split at the first NUL. */
#include "fuzz_common.h"
#include "glob.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *pat, *s;
    fz_split2(data, size, &pat, &s);
    FZ_SINK(glob_match(pat, s));
    free(pat);
    free(s);
    return 0;
}

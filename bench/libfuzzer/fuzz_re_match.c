/* re_match(re, text): two NUL-terminated strings, split at the first NUL. */
#include "fuzz_common.h"
#include "regex_tiny.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *re, *text;
    fz_split2(data, size, &re, &text);
    FZ_SINK(re_match(re, text));
    free(re);
    free(text);
    return 0;
}

/* unescape_buggy(s, out): s is the data, NUL-terminated; out has exactly
   strlen(s) + 1 bytes. */
#include "fuzz_common.h"
#include "seeded_nul.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_str(data, size);
    char *out = malloc(strlen(s) + 1);
    FZ_SINK(unescape_buggy(s, out));
    FZ_SINK(out[0]);
    free(s);
    free(out);
    return 0;
}

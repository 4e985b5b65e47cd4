/* path_normalize(in, out, size): the first byte is the size of out (0..255,
   allocated exactly), the rest is in, NUL-terminated. */
#include "fuzz_common.h"
#include "path.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t outsize = fz_byte(&data, &size);
    char *in = fz_str(data, size);
    char *out = malloc(outsize ? outsize : 1);
    if (path_normalize(in, out, outsize) >= 0)
        FZ_SINK(out[0]);
    free(in);
    free(out);
    return 0;
}

/* url_decode(in, out, size): the first byte is size (0..255, out allocated
   exactly), the rest is in, NUL-terminated. */
#include "fuzz_common.h"
#include "netstr.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t outsize = fz_byte(&data, &size);
    char *in = fz_str(data, size);
    char *out = malloc(outsize ? outsize : 1);
    if (url_decode(in, out, outsize) >= 0)
        FZ_SINK(out[0]);
    free(in);
    free(out);
    return 0;
}

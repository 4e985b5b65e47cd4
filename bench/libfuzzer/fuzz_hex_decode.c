/* hex_decode(in, len, out, size): the first byte is size (0..255, out
   allocated exactly), the rest is in, an exact copy. */
#include "fuzz_common.h"
#include "hex.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t outsize = fz_byte(&data, &size);
    char *in = (char *)fz_buf(data, size);
    unsigned char *out = malloc(outsize ? outsize : 1);
    if (hex_decode(in, size, out, outsize) > 0)
        FZ_SINK(out[0]);
    free(in);
    free(out);
    return 0;
}

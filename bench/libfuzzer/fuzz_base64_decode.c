/* base64_decode(in, len, out): in is an exact copy of the data; out has
   exactly 3*len/4 bytes. */
#include "fuzz_common.h"
#include "base64.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = (char *)fz_buf(data, size);
    unsigned char *out = malloc(3 * size / 4 ? 3 * size / 4 : 1);
    if (base64_decode(in, size, out) > 0)
        FZ_SINK(out[0]);
    free(in);
    free(out);
    return 0;
}

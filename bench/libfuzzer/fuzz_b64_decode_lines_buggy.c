/* b64_decode_lines_buggy(in, len, out): in is an exact copy of the data;
   out has exactly 3*len/4 + 1 bytes. */
#include "fuzz_common.h"
#include "seeded_lenmix.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = (char *)fz_buf(data, size);
    unsigned char *out = malloc(3 * size / 4 + 1);
    if (b64_decode_lines_buggy(in, size, out) > 0)
        FZ_SINK(out[0]);
    free(in);
    free(out);
    return 0;
}

/* buf_strlcat(dst, src, size): the first byte is size (0..255); the rest is
   split at its first NUL into dst's initial string and src. dst is a buffer
   of exactly size bytes holding the initial string with its NUL when it
   fits; when the string is size bytes or longer, dst is filled with its
   first size bytes and no NUL (the contract's "no NUL" case). */
#include "fuzz_common.h"
#include "strbuf.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t dsize = fz_byte(&data, &size), n;
    char *init, *src, *dst;
    fz_split2(data, size, &init, &src);
    dst = malloc(dsize ? dsize : 1);
    n = strlen(init);
    if (n < dsize)
        memcpy(dst, init, n + 1);
    else if (dsize > 0)
        memcpy(dst, init, dsize);
    FZ_SINK(buf_strlcat(dst, src, dsize));
    if (dsize > 0)
        FZ_SINK(dst[dsize - 1]);
    free(init);
    free(src);
    free(dst);
    return 0;
}

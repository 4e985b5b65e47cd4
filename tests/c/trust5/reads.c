/* Functions from a sweep of library-style C against ASan and libFuzzer
 * (tests/real_c_sweep.rs). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* memcmp reads its n bytes whole (ASan: READ of size 5 on a 4-byte
 * array), though its result depends on the first difference only. */
int has_magic(const char *tag, size_t n)
{
    char local[4] = {0, 0, 0, 0};
    local[0] = tag[0];
    if (n == 0 || n > 6)
        return -1;
    return memcmp(local, "GIF89a", n) == 0;
}

/* The same read, in bounds: the haystack's tests hold the nlen bytes
 * memcmp reads at each place it is called. */
const void *find_bytes(const void *hay, size_t hlen, const void *needle, size_t nlen)
{
    const unsigned char *h = hay, *n = needle;
    size_t i;
    if (nlen == 0)
        return hay;
    if (hlen < nlen)
        return NULL;
    for (i = 0; i + nlen <= hlen; i++) {
        if (h[i] == n[0] && memcmp(h + i, n, nlen) == 0)
            return h + i;
    }
    return NULL;
}

/* The high half of a 64-bit product, through __int128 where the compiler
 * has it: Pathwise reads (and its tests build) the portable branch. */
uint64_t mul_high(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t lh = al * bh, hl = ah * bl, mid;
    if (ah == 0 && bh == 0)
        return 0; /* the product fits in 64 bits */
    mid = (al * bl >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

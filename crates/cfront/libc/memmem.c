/* memmem: the result glibc 2.36 gives (the first occurrence), by the
 * plain algorithm (glibc's two-way search finds the same one), so that
 * the bytes compared stay symbolic. PW_SIZE_T is the data model's
 * size_t. */

void *memmem(const void *haystack, PW_SIZE_T hlen, const void *needle, PW_SIZE_T nlen)
{
    const unsigned char *h = (const unsigned char *)haystack;
    const unsigned char *n = (const unsigned char *)needle;
    PW_SIZE_T i, j;
    if (nlen == 0)
        return (void *)h;
    if (hlen < nlen)
        return (void *)0;
    for (i = 0; i <= hlen - nlen; i++) {
        for (j = 0; j < nlen && h[i + j] == n[j]; j++)
            ;
        if (j == nlen)
            return (void *)(h + i);
    }
    return (void *)0;
}

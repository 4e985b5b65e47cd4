/* memrchr as glibc 2.36 computes it: the last byte equal to c among the n
 * bytes at s (string/memrchr.c, one byte at a time). */

void *memrchr(const void *s, int c, PW_SIZE_T n)
{
    const unsigned char *p = (const unsigned char *)s + n;
    while (n-- != 0)
        if (*--p == (unsigned char)c)
            return (void *)p;
    return (void *)0;
}

/* strcasestr as glibc 2.36 computes it in the "C" locale: the first
 * occurrence of needle, ASCII letters compared without case. */

static int pathwise_fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

char *strcasestr(const char *haystack, const char *needle)
{
    const unsigned char *h = (const unsigned char *)haystack;
    const unsigned char *n = (const unsigned char *)needle;
    PW_SIZE_T j;
    if (*n == '\0')
        return (char *)h;
    for (; *h != '\0'; h++) {
        for (j = 0; n[j] != '\0' && pathwise_fold(h[j]) == pathwise_fold(n[j]); j++)
            ;
        if (n[j] == '\0')
            return (char *)h;
    }
    return (char *)0;
}

/* strchrnul as glibc 2.36 computes it: the first c, or the end. */

char *strchrnul(const char *s, int c)
{
    while (*s != '\0' && *s != (char)c)
        s++;
    return (char *)s;
}

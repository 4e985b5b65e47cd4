/* stpcpy and stpncpy as glibc 2.36 computes them (string/stpcpy.c,
 * string/stpncpy.c). PW_SIZE_T is the data model's size_t. */

char *stpcpy(char *dest, const char *src)
{
    PW_SIZE_T len = strlen(src);
    return (char *)memcpy(dest, src, len + 1) + len;
}

char *stpncpy(char *dest, const char *src, PW_SIZE_T n)
{
    PW_SIZE_T size = strnlen(src, n);
    memcpy(dest, src, size);
    dest += size;
    if (size == n)
        return dest;
    return (char *)memset(dest, '\0', n - size);
}

/* Bounded string copy/concatenate (BSD strlcpy/strlcat contracts) and trim. */
#include <stddef.h>
#include <ctype.h>

/* src is NUL-terminated; dst has room for size bytes (may be 0); copies at
   most size-1 bytes and NUL-terminates when size > 0; returns strlen(src) */
size_t buf_strlcpy(char *dst, const char *src, size_t size)
{
    size_t i = 0;
    if (size > 0) {
        while (i + 1 < size && src[i] != '\0') {
            dst[i] = src[i];
            i++;
        }
        dst[i] = '\0';
    }
    while (src[i] != '\0')
        i++;
    return i;
}

/* src is NUL-terminated; dst has room for size bytes; if dst has a NUL in
   its first size bytes, appends src truncated to keep the NUL; returns
   strlen(dst before) + strlen(src), or size + strlen(src) if dst has no NUL
   in its first size bytes (then dst is untouched) */
size_t buf_strlcat(char *dst, const char *src, size_t size)
{
    size_t d = 0, s = 0, o;
    while (d < size && dst[d] != '\0')
        d++;
    if (d == size) {
        while (src[s] != '\0')
            s++;
        return size + s;
    }
    o = d;
    while (src[s] != '\0') {
        if (o + 1 < size)
            dst[o++] = src[s];
        s++;
    }
    dst[o] = '\0';
    return d + s;
}

/* s is NUL-terminated and writable; removes leading and trailing
   whitespace in place; returns the new length */
size_t str_trim(char *s)
{
    size_t b = 0, e, i;
    while (s[b] != '\0' && isspace((unsigned char)s[b]))
        b++;
    e = b;
    while (s[e] != '\0')
        e++;
    while (e > b && isspace((unsigned char)s[e - 1]))
        e--;
    for (i = 0; b + i < e; i++)
        s[i] = s[b + i];
    s[i] = '\0';
    return i;
}

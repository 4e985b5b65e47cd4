/* Shell-style wildcard matching: '*', '?', '[abc]', '[a-z]', '[!x]'. */
#include <stddef.h>

/* cls is NUL-terminated and starts just after a '['; returns the number of
   bytes up to and including the closing ']' (> 0) and sets *hit to whether c
   is in the class, or returns 0 (leaving *hit alone) if there is no ']' */
size_t glob_class(const char *cls, char c, int *hit)
{
    size_t i = 0;
    int neg = 0, found = 0;
    if (cls[i] == '!' || cls[i] == '^') {
        neg = 1;
        i++;
    }
    if (cls[i] == ']') {            /* a leading ']' is a literal */
        if (c == ']')
            found = 1;
        i++;
    }
    while (cls[i] != '\0' && cls[i] != ']') {
        if (cls[i + 1] == '-' && cls[i + 2] != '\0' && cls[i + 2] != ']') {
            unsigned char lo = (unsigned char)cls[i];
            unsigned char hi = (unsigned char)cls[i + 2];
            if ((unsigned char)c >= lo && (unsigned char)c <= hi)
                found = 1;
            i += 3;
        } else {
            if (cls[i] == c)
                found = 1;
            i++;
        }
    }
    if (cls[i] != ']')
        return 0;
    *hit = found != neg;
    return i + 1;
}

/* pat and s are NUL-terminated; returns 1 if the whole of s matches pat
   ('*' any run, '?' one byte, '[...]' a class, an unterminated '[' is literal) */
int glob_match(const char *pat, const char *s)
{
    const char *star_p = NULL, *star_s = NULL;
    while (*s != '\0') {
        if (*pat == '*') {
            star_p = ++pat;
            star_s = s;
            continue;
        }
        if (*pat == '?') {
            pat++;
            s++;
            continue;
        }
        if (*pat == '[') {
            int hit = 0;
            size_t n = glob_class(pat + 1, *s, &hit);
            if (n > 0 && hit) {
                pat += n + 1;
                s++;
                continue;
            }
            if (n == 0 && *s == '[') {
                pat++;
                s++;
                continue;
            }
        } else if (*pat == *s) {
            pat++;
            s++;
            continue;
        }
        if (star_p == NULL)
            return 0;
        pat = star_p;
        s = ++star_s;
    }
    while (*pat == '*')
        pat++;
    return *pat == '\0';
}

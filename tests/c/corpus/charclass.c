/* Character classes in the style of a regex engine's bracket expressions. */
#include <stddef.h>

/* cls is NUL-terminated: single characters and ranges `a-z` (a '-' first
   or last is literal); returns 1 if c is in the class, else 0 */
static int in_class(const char *cls, char c)
{
    size_t i = 0;
    while (cls[i] != '\0') {
        if (cls[i + 1] == '-' && cls[i + 2] != '\0') {
            if (cls[i] <= c && c <= cls[i + 2])
                return 1;
            i += 3;
        } else {
            if (cls[i] == c)
                return 1;
            i++;
        }
    }
    return 0;
}

/* s and cls are NUL-terminated; returns the length of the longest prefix
   of s whose characters are all in the class cls (as `strspn` with ranges) */
size_t span_class(const char *s, const char *cls)
{
    size_t n = 0;
    while (s[n] != '\0' && in_class(cls, s[n]))
        n++;
    return n;
}

/* <wctype.h> in the "C" locale: classification and case of wide
 * characters (a glob matcher's character classes). */
#include <wctype.h>

/* 6 paths: space, upper, lower, digit, punctuation, anything else (every
 * value from 128 on is in no class). */
int wide_kind(wint_t c)
{
    if (iswspace(c))
        return 1;
    if (iswupper(c))
        return 2;
    if (iswlower(c))
        return 3;
    if (iswdigit(c))
        return 4;
    if (iswpunct(c))
        return 5;
    return 0;
}

/* Values, not decisions: the exact results glibc returns. */
unsigned fold(wint_t c)
{
    return towlower(c) + 3u * (unsigned)iswalpha(c) + 5u * (unsigned)iswxdigit(c) + towupper(c);
}
